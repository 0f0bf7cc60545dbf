import { bundleHandler, inFrontOf, type BundleHandler } from "../bundles/serve-bundle.ts";
import { DASHBOARD_BASE } from "../bundles/locations.ts";

/**
 * Node-only: the built dashboard at `/` and under /__emulator/ui/ (a single page routed by #hash). Without a build the
 * emulator answers those paths with its placeholder page.
 */
export function dashboardHandler(distDir: string): BundleHandler {
  return bundleHandler({
    dist: distDir,
    base: DASHBOARD_BASE,
    isPage: (pathname) =>
      pathname === "/" || pathname === DASHBOARD_BASE.slice(0, -1) || pathname.startsWith(DASHBOARD_BASE),
  });
}

/** The emulator's fetch with the dashboard in front (cli.ts composes it with the hosted pages: bundles/). */
export function withDashboard<A extends unknown[]>(
  distDir: string,
  appFetch: (request: Request, ...rest: A) => Response | Promise<Response>,
): (request: Request, ...rest: A) => Promise<Response> {
  return inFrontOf([dashboardHandler(distDir)], appFetch);
}
