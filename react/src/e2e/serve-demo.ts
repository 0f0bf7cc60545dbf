import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

/**
 * Serves a built demo over loopback: its files, `/demo-config.json` (where the provider is), and index.html for every
 * other path, so /handler/sign-in and /protected load the single-page app (a Node-only test harness).
 */
export interface ServedDemo {
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
};

export async function serveDemo(distDir: string, config: unknown): Promise<ServedDemo> {
  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? "/", "http://demo").pathname;
      if (path === "/demo-config.json") {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify(config));
        return;
      }
      const file = normalize(join(distDir, path));
      const isAsset = file.startsWith(join(distDir, "assets")) && extname(file) !== "";
      const served = isAsset ? file : join(distDir, "index.html");
      try {
        const body = await readFile(served);
        res.writeHead(200, { "content-type": TYPES[extname(served)] ?? "application/octet-stream" });
        res.end(body);
      } catch {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
