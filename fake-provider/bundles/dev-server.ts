import { CONTROL_PREFIX } from "../src/control/routes.ts";
import { dashboardBundle } from "../dashboard/build.ts";
import { dashboardHandler } from "../dashboard/serve.ts";
import { hostedBundle } from "../hosted/build.ts";
import type { EmulatorFetch } from "../hosted/project-choice.ts";
import { hostedHandler } from "../hosted/serve.ts";
import { ensureBuiltNote } from "./ensure-built.ts";
import { inFrontOf } from "./serve-bundle.ts";

/**
 * Node-only: what the dev server (src/cli.ts) ships besides the API — the dashboard at / and the hosted handler pages
 * at /handler/* and /app (the dev project, or any other by ?project_id=) — built on start when stale and served from
 * disk.
 */
export interface BundleNotes {
  dashboard: string;
  hosted: string;
}

/** One build step for both (one after the other: two Vite builds in one process gain little and log interleaved). */
export async function ensureBundlesBuilt(): Promise<BundleNotes> {
  const dashboard = await ensureBuiltNote(dashboardBundle);
  const hosted = await ensureBuiltNote(hostedBundle);
  return { dashboard, hosted };
}

/** `appFetch`'s extra arguments (the Node bindings a dropped-connection fault needs) pass through untouched. */
export function withBundles<A extends unknown[]>(
  appFetch: (request: Request, ...rest: A) => Response | Promise<Response>,
  emulator: EmulatorFetch,
): (request: Request, ...rest: A) => Promise<Response> {
  return inFrontOf([hostedHandler(hostedBundle.dist, emulator), dashboardHandler(dashboardBundle.dist)], appFetch);
}

/** The banner's lines for the bundles, under the "listening on" line. */
export function bundleBannerLines(apiUrl: string, notes: BundleNotes): string[] {
  const { hostname, port } = new URL(apiUrl);
  // WebAuthn refuses an IP address as the relying-party id: passkeys work only under a host name.
  const passkeys = /^[\d.]+$|^\[/.test(hostname) ? `; for passkeys open http://localhost:${port}/handler/sign-in` : "";
  return [
    `Dashboard: ${apiUrl}/ (${notes.dashboard}${notes.dashboard.startsWith("not built") ? "; / shows a placeholder" : ""})`,
    `Hosted sign-in: ${apiUrl}/handler/sign-in (dev project; ?project_id=… for another; home page ${apiUrl}/app; ${notes.hosted}${passkeys})`,
    `API reference: ${apiUrl}${CONTROL_PREFIX}/api-reference (OpenAPI document at ${apiUrl}${CONTROL_PREFIX}/openapi.json)`,
  ];
}
