import { headerNames, rebranded } from "@authsim/sdk/contract";

/**
 * What the emulator refuses from a web browser (README "Security model"). It runs on a developer's laptop next to a
 * browser that visits arbitrary sites, its control plane needs no credentials, and its dev keys are published. So:
 *
 * - **Host**: when the server was started for a set of host names (the dev server: loopback names and --allow-host),
 *   every request must name one of them. A page on attacker.example whose name re-resolves to 127.0.0.1 (DNS
 *   rebinding) sends `Host: attacker.example` and is refused, so it can read nothing from the port.
 * - **Control plane** (`/__emulator/*`): an `Origin`, when present, must be the emulator's own (its dashboard and hosted
 *   pages); a state-changing request must be `application/json` (a cross-site page cannot send that without a CORS
 *   preflight, which the control plane never grants). The emulator's own form pages (the mock identity provider, the
 *   checkout) may post forms, from their own origin or from a client that sends no Origin.
 * - **API**: client access keeps the real service's CORS (`*`). A secret server key or the admin key is accepted from a
 *   page only when that page is on this machine (loopback) or an allowed host: the real service lets browsers send them,
 *   but its keys are secret, while the emulator's fixed dev keys are public, so a foreign site could otherwise list
 *   every user on the developer's emulator.
 *
 * Pure functions of the request (web standards only), so the same rules serve Node, msw and tests.
 */

/** Host names that always mean "this machine". */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]", "::1"];

export interface HostPolicy {
  /** Extra host names (e.g. `host.docker.internal`, a LAN name with --allow-network); case-insensitive, no port. */
  readonly extraHosts: readonly string[];
}

/** The host name of a `Host` header or URL host (`name:port` or `[v6]:port`), lower-cased, without the port. */
export function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith("[")) return lower.slice(0, lower.indexOf("]") + 1);
  const colon = lower.lastIndexOf(":");
  return colon === -1 ? lower : lower.slice(0, colon);
}

export function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.includes(name) || name.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(name);
}

export function hostAllowed(host: string, policy: HostPolicy): boolean {
  const name = hostName(host);
  return isLoopbackName(name) || policy.extraHosts.some((h) => h.toLowerCase() === name);
}

/** The request's Host (what the client named), falling back to its URL's host in process. */
function requestHost(request: Request): string {
  return request.headers.get("host") ?? new URL(request.url).host;
}

/** Plain text: these refusals come from the emulator, not the emulated service, and a person reads them. */
const refusal = (status: number, message: string) =>
  new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8" } });

export function hostRefusal(request: Request, policy: HostPolicy): Response | null {
  const host = requestHost(request);
  if (hostAllowed(host, policy)) return null;
  return refusal(
    403,
    `authsim answers only requests for this machine's names (localhost, 127.0.0.1, [::1]), not Host "${hostName(host)}". ` +
      "Start it with --allow-host NAME to add a name (for example host.docker.internal).",
  );
}

/** Control endpoints that are pages a person submits as an HTML form. */
const FORM_PATHS = [/\/oauth\/authorize\/[^/]+$/, /\/checkout\/[^/]+$/, /\/payments\/onboarding\/[^/]+$/];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function controlRefusal(request: Request): Response | null {
  const url = new URL(request.url);
  const origin = request.headers.get("origin");
  const ownOrigin = `${url.protocol}//${requestHost(request)}`;
  if (origin !== null && origin !== ownOrigin) {
    return refusal(403, `The emulator's controls answer only its own pages (${ownOrigin}), not a page on ${origin}.`);
  }
  if (SAFE_METHODS.has(request.method)) return null;
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") return null;
  if (type === "application/x-www-form-urlencoded" && FORM_PATHS.some((p) => p.test(url.pathname))) return null;
  return refusal(
    415,
    `${request.method} ${url.pathname} changes the emulator's state: send it with content-type: application/json.`,
  );
}

const secretKeyHeaders = [headerNames.secretServerKey, headerNames.superSecretAdminKey].flatMap((h) => [
  h,
  rebranded(h),
]);

/** A page that is not on this machine (or an allowed host) may not use the secret server key or the admin key. */
export function secretKeyRefusal(request: Request, policy: HostPolicy): Response | null {
  const origin = request.headers.get("origin");
  if (origin === null || !secretKeyHeaders.some((h) => request.headers.has(h))) return null;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = "";
  }
  if (originHost !== "" && hostAllowed(originHost, policy)) return null;
  return refusal(
    403,
    `A web page on ${origin} sent a secret server key or admin key. authsim's dev keys are public, so it accepts them ` +
      "only from servers and from pages on this machine; keep secret keys on your server (or use --allow-host).",
  );
}
