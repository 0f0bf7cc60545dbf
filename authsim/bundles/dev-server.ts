import { existsSync } from "node:fs";
import { join } from "node:path";
import { CONTROL_PREFIX } from "@authsim/fake-provider";
import { dashboardHandler } from "../dashboard/serve.ts";
import type { EmulatorFetch } from "../hosted/project-choice.ts";
import { hostedHandler, hostedOnly } from "../hosted/serve.ts";
import { hostedHandlerUrlTemplate } from "../hosted/src/hosted-config.ts";
import { DASHBOARD_DIST, HOSTED_DIST } from "./locations.ts";
import { inFrontOf } from "./serve-bundle.ts";

/**
 * Node-only: what the dev server (src/cli.ts) ships besides the API — the dashboard at / and the hosted handler pages
 * at /handler/* and /app (the dev project, or any other by ?project_id=) — static files built with the package and
 * served from disk.
 */
export interface BundleNotes {
  dashboard: string;
  hosted: string;
}

/** What a dev build module (dev-build.ts) offers; it exists in the monorepo only. */
interface DevBuild {
  ensureBundlesBuilt(): Promise<BundleNotes>;
}

/**
 * The pages' state for the banner. Run from the package's build, they were built with it: nothing is built here, and
 * nothing is written. Run from sources (the monorepo: `npm start`, the browser tests), they are rebuilt with Vite when
 * older than their sources (dev-build.ts, named at run time so the package's build never includes it).
 */
export async function prepareBundles(): Promise<BundleNotes> {
  if (import.meta.url.endsWith(".ts")) {
    const devBuild: string = new URL("./dev-build.ts", import.meta.url).href;
    return await ((await import(devBuild)) as DevBuild).ensureBundlesBuilt();
  }
  const note = (dist: string) =>
    existsSync(join(dist, "index.html")) ? "built with the package" : `not built (no ${dist})`;
  return { dashboard: note(DASHBOARD_DIST), hosted: note(HOSTED_DIST) };
}

/** `appFetch`'s extra arguments (the Node bindings a dropped-connection fault needs) pass through untouched. */
export function withBundles<A extends unknown[]>(
  appFetch: (request: Request, ...rest: A) => Response | Promise<Response>,
  emulator: EmulatorFetch,
): (request: Request, ...rest: A) => Promise<Response> {
  const served = inFrontOf([hostedHandler(HOSTED_DIST, emulator), dashboardHandler(DASHBOARD_DIST)], appFetch);
  // A project's own address (<projectId>.localhost, the kit's hosted mode) reaches the hosted pages and nothing else.
  return async (request, ...rest) => hostedOnly(request) ?? (await served(request, ...rest));
}

/** The banner's lines for the bundles, under the "listening on" line. */
export function bundleBannerLines(apiUrl: string, notes: BundleNotes): string[] {
  const { hostname, port } = new URL(apiUrl);
  // WebAuthn refuses an IP address as the relying-party id: passkeys work only under a host name.
  const passkeys = /^[\d.]+$|^\[/.test(hostname) ? `; for passkeys open http://localhost:${port}/handler/sign-in` : "";
  return [
    `Dashboard: ${apiUrl}/ (${notes.dashboard}${notes.dashboard.startsWith("not built") ? "; / shows a placeholder" : ""})`,
    `Hosted sign-in: ${apiUrl}/handler/sign-in (dev project; ?project_id=… for another; home page ${apiUrl}/app; ${notes.hosted}${passkeys})`,
    `  and per project at ${hostedHandlerUrlTemplate(apiUrl).replace("{hostedPath}", "handler/sign-in")} (the published kit's hosted mode: NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE below)`,
    `API reference: ${apiUrl}${CONTROL_PREFIX}/api-reference (OpenAPI document at ${apiUrl}${CONTROL_PREFIX}/openapi.json)`,
  ];
}
