import { devProjectSeed } from "@authsim/fixtures";
import { isTrustedRedirectUrl } from "@authsim/sdk/urls";
import { controlClient, type ControlAnswer, type ControlClient } from "@authsim/sdk/emulator";
import { hostName } from "@authsim/fake-provider/dev-server";
import {
  HOSTED_HANDLER,
  HOSTED_HOME,
  HOSTED_PROJECT_COOKIE,
  PROJECT_QUERY,
  projectOfHost,
} from "./src/hosted-config.ts";

/**
 * Which project the hosted pages serve for a request, and what the emulator knows of it. The server reads the
 * emulator only through its control endpoints (the same ones the dashboard uses): they are outside /api/v1, so a
 * lookup is neither written to the request log nor caught by a fault rule the developer set for their app.
 */

/**
 * How serve.ts reaches the emulator it stands in front of: the app's fetch, in process. Never HTTP back to the origin
 * the browser used: behind a port forward or a proxy that origin need not be reachable from the server itself.
 */
export type EmulatorFetch = (request: Request) => Response | Promise<Response>;

// GET /__emulator/projects: every project but `internal`, the emulator's own.
export type HostedProject = ControlAnswer<"projects">["items"][number];

/**
 * The project a request asks for, and how: its host (`<projectId>.localhost`, the kit's hosted mode) beats its own
 * `?project_id=` beats the remembered cookie beats the dev project.
 */
export interface AskedProject {
  id: string;
  via: "host" | "query" | "cookie" | "default";
}

function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim()) || null;
    } catch {
      return null;
    }
  }
  return null;
}

export function askedProject(request: Request): AskedProject {
  const url = new URL(request.url);
  const byHost = projectOfHost(hostName(request.headers.get("host") ?? url.host));
  if (byHost) return { id: byHost, via: "host" };
  const query = url.searchParams.get(PROJECT_QUERY);
  if (query) return { id: query, via: "query" };
  const remembered = cookieValue(request.headers.get("cookie"), HOSTED_PROJECT_COOKIE);
  if (remembered) return { id: remembered, via: "cookie" };
  return { id: devProjectSeed.id, via: "default" };
}

/**
 * A session cookie (no Max-Age): the choice lasts while the browser does. HttpOnly: only this server reads it. Cookies
 * ignore the port, so another emulator on this host sees it too and answers "unknown project" (then forgets it).
 */
export const rememberProject = (id: string) =>
  `${HOSTED_PROJECT_COOKIE}=${encodeURIComponent(id)}; Path=/; SameSite=Lax; HttpOnly`;
export const forgetProject = () => `${HOSTED_PROJECT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly`;

/** The control plane's client on the request's origin, its requests handed to the emulator in process. */
const control = (emulator: EmulatorFetch, request: Request): ControlClient =>
  controlClient({
    baseUrl: new URL(request.url).origin,
    fetch: async (input, init) => emulator(new Request(input, init)),
  });

export async function listProjects(emulator: EmulatorFetch, request: Request): Promise<HostedProject[]> {
  return (await control(emulator, request).call("projects")).items;
}

/**
 * The project as any of its clients reads it (GET /projects/current's view: no key, no secret), and whether it allows
 * localhost redirects (an admin setting the client view does not carry, which the trust check below needs).
 */
export type HostedClientConfig = ControlAnswer<"clientConfig">;
export async function clientConfig(
  emulator: EmulatorFetch,
  request: Request,
  projectId: string,
): Promise<HostedClientConfig> {
  return await control(emulator, request).call("clientConfig", { params: { project_id: projectId } });
}

/**
 * Whether the project accepts this origin's pages as redirect targets: the emulator checks every emailed link's
 * callback URL and every OAuth redirect against allow-localhost and the trusted domains (spec §5), so both the handler
 * pages and the home page must pass for the flows to work.
 */
export function trustsOrigin(request: Request, { project, allow_localhost }: HostedClientConfig): boolean {
  const rules = { allowLocalhost: allow_localhost, domains: project.config.domains };
  const origin = new URL(request.url).origin;
  return [`${HOSTED_HANDLER}/sign-in`, HOSTED_HOME].every((path) => isTrustedRedirectUrl(new URL(path, origin), rules));
}
