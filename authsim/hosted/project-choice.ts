import { z } from "zod";
import { devProjectSeed } from "@authsim/fixtures";
import { clientProject } from "@authsim/sdk/contract";
import { isTrustedRedirectUrl } from "@authsim/sdk/urls";
import { CONTROL_PREFIX } from "@authsim/fake-provider";
import { HOSTED_HANDLER, HOSTED_HOME, HOSTED_PROJECT_COOKIE, PROJECT_QUERY } from "./src/hosted-config.ts";

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
const projectList = z.object({ items: z.array(z.object({ id: z.string(), display_name: z.string(), publishable_client_key: z.string().nullable() })) });

export type HostedProject = z.infer<typeof projectList>["items"][number];

/** The project a request asks for, and how: its own `?project_id=` beats the remembered cookie beats the dev project. */
export interface AskedProject {
  id: string;
  via: "query" | "cookie" | "default";
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
  const query = new URL(request.url).searchParams.get(PROJECT_QUERY);
  if (query) return { id: query, via: "query" };
  const remembered = cookieValue(request.headers.get("cookie"), HOSTED_PROJECT_COOKIE);
  if (remembered) return { id: remembered, via: "cookie" };
  return { id: devProjectSeed.id, via: "default" };
}

/**
 * A session cookie (no Max-Age): the choice lasts while the browser does. HttpOnly: only this server reads it. Cookies
 * ignore the port, so another emulator on this host sees it too and answers "unknown project" (then forgets it).
 */
export const rememberProject = (id: string) => `${HOSTED_PROJECT_COOKIE}=${encodeURIComponent(id)}; Path=/; SameSite=Lax; HttpOnly`;
export const forgetProject = () => `${HOSTED_PROJECT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly`;

async function control<T>(emulator: EmulatorFetch, request: Request, path: string, schema: z.ZodType<T>): Promise<T> {
  const url = new URL(`${CONTROL_PREFIX}${path}`, request.url);
  const response = await emulator(new Request(url));
  if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}`);
  return schema.parse(await response.json());
}

export async function listProjects(emulator: EmulatorFetch, request: Request): Promise<HostedProject[]> {
  return (await control(emulator, request, "/projects", projectList)).items;
}

/**
 * The project as any of its clients reads it (GET /projects/current's view: no key, no secret), and whether it allows
 * localhost redirects (an admin setting the client view does not carry, which the trust check below needs).
 */
const hostedClientConfig = z.object({ project: clientProject, allow_localhost: z.boolean() });
export type HostedClientConfig = z.infer<typeof hostedClientConfig>;
export async function clientConfig(emulator: EmulatorFetch, request: Request, projectId: string): Promise<HostedClientConfig> {
  return await control(emulator, request, `/projects/${encodeURIComponent(projectId)}/client-config`, hostedClientConfig);
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
