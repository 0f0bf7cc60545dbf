import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { DASHBOARD_BASE } from "./vite.config.ts";

/**
 * Node-only: serves a built dashboard in front of the emulator's web-standard app (cli.ts wraps the app's fetch with
 * it). `/` and everything under /__emulator/ui/ are the dashboard; every other request goes to the emulator. Files are
 * read per request, so a rebuild is served without a restart.
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
    return new Response(body, { headers: { "content-type": TYPES[extname(path)] ?? "application/octet-stream", "cache-control": cache } });
  } catch {
    return null;
  }
}

/** `appFetch`'s extra arguments (the Node bindings a dropped-connection fault needs) are passed through untouched. */
export function withDashboard<A extends unknown[]>(
  distDir: string,
  appFetch: (request: Request, ...rest: A) => Response | Promise<Response>,
): (request: Request, ...rest: A) => Promise<Response> {
  const root = normalize(distDir + sep);
  return async (request, ...rest) => {
    const { pathname } = new URL(request.url);
    const isPage = pathname === "/" || pathname === DASHBOARD_BASE.slice(0, -1) || pathname.startsWith(DASHBOARD_BASE);
    if ((request.method !== "GET" && request.method !== "HEAD") || !isPage) return await appFetch(request, ...rest);
    let relative = "";
    try {
      relative = pathname.startsWith(DASHBOARD_BASE) ? decodeURIComponent(pathname.slice(DASHBOARD_BASE.length)) : "";
    } catch {
      // A malformed %-escape names no file: the page itself is served.
    }
    const target = normalize(join(root, relative));
    // Asset names carry a content hash, so they may be cached for good; the page itself never is.
    if (relative.startsWith("assets/") && target.startsWith(root)) {
      const asset = await file(target, "public, max-age=31536000, immutable");
      if (asset) return asset;
      return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    // Any other dashboard path is the single page (it routes by #hash); no build means the emulator's placeholder page.
    return (await file(join(root, "index.html"), "no-store")) ?? (await appFetch(request, ...rest));
  };
}
