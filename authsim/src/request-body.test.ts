import { createServer, IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequestListener } from "@hono/node-server";
import { preloadBody } from "./request-body.ts";
import { upload } from "./test-support/upload.ts";

/** What the app sees of a request whose body the dev server read ahead (request-body.ts), over a real socket. */
const LIMIT = 1024 * 1024;
let server: Server;
let base: string;
type Probe = (request: Request) => Promise<unknown>;
let probe: Probe = () => Promise.resolve(null);

beforeAll(async () => {
  server = createServer(
    getRequestListener(async (request, env) => {
      const incoming = (env as { incoming: unknown }).incoming;
      if (incoming instanceof IncomingMessage && (await preloadBody(request, incoming, LIMIT)) === "too-large") {
        return new Response(null, { status: 413 });
      }
      return Response.json(await probe(request));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function send(body: BodyInit | null, method = "POST", run: Probe): Promise<unknown> {
  probe = run;
  const response = await fetch(`${base}/x`, { method, body, headers: { "content-type": "application/json" } });
  return response.json();
}

describe("a body read ahead", () => {
  it("is the text, JSON and bytes the Fetch standard gives (UTF-8, a BOM dropped)", async () => {
    expect(await send('{"name":"Zoë"}', "POST", (r) => r.json())).toEqual({ name: "Zoë" });
    expect(await send("\ufeffhello", "POST", (r) => r.text())).toBe("hello");
    // One decoder serves every request: each body's BOM is its own, and a cut sequence does not leak into the next body.
    expect(await send(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61, 0xe2, 0x82), "POST", (r) => r.text())).toBe("a\ufffd");
    expect(await send("\ufeffb", "POST", (r) => r.text())).toBe("b");
    expect(await send("\ufeff\ufeffc", "POST", (r) => r.text())).toBe("\ufeffc");
    expect(
      await send(Uint8Array.of(1, 2, 255), "PUT", async (r) => [...new Uint8Array(await r.arrayBuffer())]),
    ).toEqual([1, 2, 255]);
  });

  it("is read once, as a Request's body is", async () => {
    expect(
      await send("{}", "POST", async (r) => {
        const before = r.bodyUsed;
        await r.text();
        const second = await r.text().then(
          () => "read again",
          (e: unknown) => (e instanceof TypeError ? "TypeError" : "other"),
        );
        return [before, r.bodyUsed, second];
      }),
    ).toEqual([false, true, "TypeError"]);
  });

  it("still streams through the full Request, large bodies in several chunks included", async () => {
    const large = "x".repeat(300_000);
    expect(await send(large, "POST", async (r) => (await new Response(r.body).text()).length)).toBe(300_000);
    expect(await send(large, "POST", async (r) => (await r.text()).length)).toBe(300_000);
  });

  it("leaves GET requests alone", async () => {
    expect(await send(null, "GET", async (r) => [r.bodyUsed, r.body === null])).toEqual([false, true]);
  });
});

describe("a body past the limit", () => {
  it("is refused from its Content-Length alone, before the app sees it", async () => {
    probe = () => Promise.reject(new Error("the app must not be reached"));
    expect((await upload(`${base}/x`, 100 * LIMIT, true)).status).toBe(413);
  });

  it("is refused while it streams without a length, once it passes the limit", async () => {
    probe = () => Promise.reject(new Error("the app must not be reached"));
    expect((await upload(`${base}/x`, 100 * LIMIT, false)).status).toBe(413);
  });

  it("is read whole up to the limit, and refused past it, whatever its size and however it is sent", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: LIMIT - 100_000, max: LIMIT + 100_000 }),
        fc.boolean(),
        async (size, declared) => {
          probe = async (r) => (await r.text()).length;
          const answer = await upload(`${base}/x`, size, declared);
          expect(answer.status).toBe(size > LIMIT ? 413 : 200);
          if (size <= LIMIT) expect(JSON.parse(answer.text)).toBe(size);
        },
      ),
      {
        numRuns: 30,
        examples: [
          [LIMIT, true],
          [LIMIT, false],
          [LIMIT + 1, true],
          [LIMIT + 1, false],
        ],
      },
    );
  });
});
