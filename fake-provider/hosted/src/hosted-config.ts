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

export interface HostedConfig {
  /** The emulator's origin as the browser reached it (127.0.0.1 or localhost): same origin, same cookies. */
  baseUrl: string;
  projectId: string;
  projectName: string;
  publishableClientKey: string;
}

/** Whether a path is one of the hosted pages (the single page then routes by the path itself). */
export function isHostedPage(pathname: string): boolean {
  return pathname === HOSTED_HOME || pathname === HOSTED_HANDLER || pathname.startsWith(`${HOSTED_HANDLER}/`);
}
