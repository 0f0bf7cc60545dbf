import type { ClientProjectJson } from "@authsim/sdk/contract";

/**
 * What the hosted pages and the server that ships them agree on (no Node or browser imports: both sides use it).
 * The pages live on the emulator's own origin, so the SDK's cookie store and WebAuthn see the same host as the API.
 */

/** Vite's `base`: the built assets and the config live under the emulator's reserved prefix, clear of app paths. */
export const HOSTED_BASE = "/__emulator/hosted/";
/** Where the pages read which project they sign in to (served per request by hosted/serve.ts). */
export const HOSTED_CONFIG_PATH = `${HOSTED_BASE}config.json`;
/** The handler pages (spec §2's default handler base). */
export const HOSTED_HANDLER = "/handler";
/** The hosted home page: `/` is the dashboard, so the pages' home, afterSignIn and afterSignOut point here. */
export const HOSTED_HOME = "/app";
/** The query parameter that picks the project on any hosted URL (and on the config). */
export const PROJECT_QUERY = "project_id";
/**
 * Where the server remembers the project a `?project_id=` picked, so the pages' own redirects (sign-in → /app, the
 * handler links) stay on it without carrying the parameter. Without it, the dev project.
 */
export const HOSTED_PROJECT_COOKIE = "authsim-hosted-project";

export interface HostedConfig {
  /**
   * The API's origin: the emulator's origin as the browser reached it (127.0.0.1 or localhost: same origin, same
   * cookies), or, for pages on a project's own address (`<projectId>.localhost`), the emulator under its localhost name,
   * as the real hosted pages call the real API on its own origin.
   */
  baseUrl: string;
  projectId: string;
  projectName: string;
  /** Null for a project with no key set yet (one made through the admin API gets none until its owner makes them). */
  publishableClientKey: string | null;
  /**
   * Whether the project trusts this origin for redirect URLs (allow localhost, or a trusted domain that matches): if
   * not, the emulator refuses every emailed link and OAuth redirect these pages ask for, and the pages say so.
   */
  originTrusted: boolean;
  /** The project's localhost allowance (an admin setting): with its trusted domains, where the pages may redirect. */
  allowLocalhost: boolean;
  /** The project as its clients read it (GET /projects/current), so the first render needs no request for it. */
  project: ClientProjectJson;
}

/**
 * The element the server inlines the config in, as JSON (serve.ts `inlineConfig`): the page starts from it at once,
 * without asking the server for it first.
 */
export const HOSTED_CONFIG_ELEMENT_ID = "authsim-hosted-config";

/** A hosted URL on a given project: what the dashboard links to and what emailed links come back to. */
export function withProject(path: string, projectId: string): string {
  return `${path}${path.includes("?") ? "&" : "?"}${PROJECT_QUERY}=${encodeURIComponent(projectId)}`;
}

/** Whether a path is one of the hosted pages (the single page then routes by the path itself). */
export function isHostedPage(pathname: string): boolean {
  return pathname === HOSTED_HOME || pathname === HOSTED_HANDLER || pathname.startsWith(`${HOSTED_HANDLER}/`);
}

/**
 * The project a hosted address names in its host, as the published kit's hosted mode addresses the pages:
 * `<projectId>.localhost` (its development template `http://{projectId}.localhost:<port>/{hostedPath}`). Null for any
 * other host (the emulator's own names: then the query, the remembered choice or the dev project decide).
 */
export function projectOfHost(hostname: string): string | null {
  const match = /^([^.]+)\.localhost\.?$/i.exec(hostname);
  return match ? match[1]!.toLowerCase() : null;
}

/** The kit's hosted-handler URL template for an emulator origin (NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE). */
export function hostedHandlerUrlTemplate(origin: string): string {
  const { protocol, port } = new URL(origin);
  return `${protocol}//{projectId}.localhost${port ? `:${port}` : ""}/{hostedPath}`;
}

/** The same page on a project's own address (what an unknown project's page links to when the host named it). */
export function onProjectHost(url: URL, projectId: string): string {
  const other = new URL(url);
  other.hostname = `${projectId}.localhost`;
  return other.href;
}
