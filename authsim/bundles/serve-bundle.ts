import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { forbidFraming } from "@authsim/fake-provider/dev-server";

/**
 * Node-only: serves built bundles (the dashboard, the hosted handler pages) in front of the emulator's web-standard
 * app; cli.ts wraps the app's fetch with them. Files are read per request, so a rebuild is served without a restart.
 */
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

async function file(path: string, cache: string): Promise<Response | null> {
  try {
    const body = await readFile(path);
    return new Response(body, {
      headers: { "content-type": TYPES[extname(path)] ?? "application/octet-stream", "cache-control": cache },
    });
  } catch {
    return null;
  }
}

/** Answers a GET it owns, or null to let the next handler (and finally the emulator) answer. */
export type BundleHandler = (request: Request, pathname: string) => Promise<Response | null>;

export interface BundleRoutes {
  dist: string;
  /** The path the bundle was built for (Vite's `base`, ending in "/"): its assets live under `${base}assets/`. */
  base: string;
  /** Whether a path is one of the bundle's pages; each answers the single page, which routes by the URL itself. */
  isPage(pathname: string): boolean;
  /** A page's answer when there is no build; null lets the emulator answer (the dashboard's placeholder). */
  unbuilt?: () => Response;
}

export function bundleHandler(routes: BundleRoutes): BundleHandler {
  const root = normalize(routes.dist + sep);
  return async (_request, pathname) => {
    if (pathname.startsWith(`${routes.base}assets/`)) {
      let relative: string | null = null;
      try {
        relative = decodeURIComponent(pathname.slice(routes.base.length));
      } catch {
        // A malformed %-escape names no file.
      }
      const target = relative === null ? null : normalize(join(root, relative));
      // Asset names carry a content hash, so they may be cached for good; paths that climb out of the build never
      // read other files.
      const asset = target?.startsWith(root) ? await file(target, "public, max-age=31536000, immutable") : null;
      return (
        asset ?? new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } })
      );
    }
    if (!routes.isPage(pathname)) return null;
    // The page itself is never cached: a rebuild names new assets.
    return (await file(join(root, "index.html"), "no-store")) ?? routes.unbuilt?.() ?? null;
  };
}

/**
 * The emulator's fetch with `handlers` in front for GET and HEAD. `appFetch`'s extra arguments (the Node bindings a
 * dropped-connection fault needs) are passed through untouched. The bundles' pages may be framed by their own origin
 * only, as the emulator's own pages (forbidFraming).
 */
export function inFrontOf<A extends unknown[]>(
  handlers: readonly BundleHandler[],
  appFetch: (request: Request, ...rest: A) => Response | Promise<Response>,
): (request: Request, ...rest: A) => Promise<Response> {
  return async (request, ...rest) => {
    if (request.method === "GET" || request.method === "HEAD") {
      const { pathname } = new URL(request.url);
      for (const handler of handlers) {
        const answer = await handler(request, pathname);
        if (answer) return forbidFraming(answer);
      }
    }
    return await appFetch(request, ...rest);
  };
}
