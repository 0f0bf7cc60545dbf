import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

/**
 * Serves a Vite build on a free loopback port as a single-page app (unknown paths get index.html), plus
 * `/runtime-config.js` naming the emulator, so the build stays the same whatever port the dev server got.
 */
export interface StaticApp {
  url: string;
  close(): Promise<void>;
}

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

export async function serveStaticApp(root: string, runtimeConfig: unknown): Promise<StaticApp> {
  const configScript = `window.__AUTHSIM_KIT_CONFIG__ = ${JSON.stringify(runtimeConfig)};\n`;
  const server: Server = createServer((request, response) => {
    void (async () => {
      const path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
      if (path === "/runtime-config.js") {
        response.writeHead(200, { "content-type": types[".js"]!, "cache-control": "no-store" });
        return response.end(configScript);
      }
      const file = normalize(join(root, path));
      const inside = file.startsWith(root.endsWith(sep) ? root : root + sep);
      try {
        if (!inside || !extname(file)) throw new Error("not a file");
        const body = await readFile(file);
        response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
        response.end(body);
      } catch {
        if (extname(path) && path.startsWith("/assets/")) {
          response.writeHead(404).end();
          return;
        }
        response.writeHead(200, { "content-type": types[".html"]! });
        response.end(await readFile(join(root, "index.html")));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
