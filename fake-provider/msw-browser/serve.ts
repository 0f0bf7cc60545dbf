import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

/**
 * Node-only: serves the built page and msw's worker script over loopback (http://127.0.0.1 is a secure context, so
 * service workers are allowed) and records every path asked for, so a test can show that no API request ever left the
 * page: the only files fetched are the page's own.
 */
export interface ServedPage {
  url: string;
  /** Every path requested, in order. */
  requested: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css",
};

export async function servePage(distDir: string): Promise<ServedPage> {
  const requested: string[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? "/", "http://page").pathname;
      requested.push(path);
      const file = normalize(join(distDir, path === "/" ? "index.html" : path));
      if (!file.startsWith(distDir)) {
        res.writeHead(403).end();
        return;
      }
      try {
        const body = await readFile(file);
        res.writeHead(200, {
          "content-type": TYPES[extname(file)] ?? "application/octet-stream",
          "cache-control": "no-store",
        });
        res.end(body);
      } catch {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requested,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
