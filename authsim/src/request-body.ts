import { IncomingMessage } from "node:http";
import type { Http2Bindings, HttpBindings } from "@hono/node-server";
import { bodyTooLargeText, corsHeaders } from "@authsim/fake-provider/dev-server";

/**
 * Reads a request's body from Node's stream into one Buffer before the emulator asks for it, and answers the Request's
 * `text()`, `json()` and `arrayBuffer()` from that Buffer. @hono/node-server hands the app a lightweight Request that
 * reads method, URL and headers straight from Node, but its body methods build a full Request (WebIDL conversions, an
 * AbortSignal, a web stream adapted from Node's): about a sixth of a token refresh's CPU. The body is read in full
 * either way (the emulator parses every body it is sent), up to `limit` bytes: a larger one is refused before it is
 * read (its Content-Length) or as soon as it passes the limit (sent in chunks), and is never held whole. The Buffer is
 * also left where the adapter looks for one (`rawBody`), so `body`, `clone()` and the rest still work through the full
 * Request. A stream that fails or closes early changes nothing: the Request reads it as before and fails as it did.
 */
export function preloadBody(request: Request, incoming: IncomingMessage, limit: number): BodyPreload | null {
  if (incoming.method === "GET" || incoming.method === "HEAD" || incoming.readableEnded) return null;
  // Node's parser ends a body at its Content-Length, so a declared length past the limit is refused unread.
  const declared = incoming.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) return "too-large";
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      // A body sent without a length (chunked) is counted as it comes, and reading stops at the first chunk past the
      // limit: no more than the limit is ever held.
      if (total > limit) return done("too-large");
      chunks.push(chunk);
    };
    const done = (outcome: "read" | "too-large" | "failed") => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onFailure);
      incoming.off("close", onFailure);
      if (outcome === "too-large") {
        incoming.pause();
        chunks.length = 0;
        return resolve("too-large");
      }
      if (outcome === "read") {
        const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        (incoming as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
        answerBodyFrom(request, body);
      }
      resolve("read");
    };
    const onEnd = () => done("read");
    const onFailure = () => done("failed");
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onFailure);
    incoming.on("close", onFailure);
  });
}

/** "read" once the body is held (or its stream failed, which the Request then reports as before); "too-large" when refused. */
export type BodyPreload = "too-large" | Promise<"read" | "too-large">;

/**
 * Decodes as the Fetch standard's `text()` does: UTF-8, a BOM dropped, malformed bytes replaced. One decoder serves
 * every request: without `{ stream: true }` a decode keeps no state between calls.
 */
const utf8 = new TextDecoder();

const preloaded = Symbol("authsim.preloadedBody");
type WithBody = Request & { [preloaded]: { readonly body: Buffer; used: boolean } };

/** The body methods as the Fetch standard has them: readable once, then refused. */
function consume<T>(request: WithBody, read: (body: Buffer) => T): Promise<T> {
  const state = request[preloaded];
  if (state.used) return Promise.reject(new TypeError("Body is unusable: Body has already been read"));
  state.used = true;
  try {
    return Promise.resolve(read(state.body));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

const bodyMethods: PropertyDescriptorMap = {
  text: {
    value: function (this: WithBody) {
      return consume(this, (body) => utf8.decode(body));
    },
  },
  json: {
    value: function (this: WithBody) {
      return consume(this, (body) => JSON.parse(utf8.decode(body)) as unknown);
    },
  },
  arrayBuffer: {
    value: function (this: WithBody) {
      return consume(this, (body) => body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
    },
  },
  bodyUsed: {
    get: function (this: WithBody) {
      return this[preloaded].used;
    },
  },
};

/**
 * The adapter's request prototype with the body methods above in front, made once. A request is switched to it rather
 * than given the methods as properties of its own: defining four properties on every request cost ~2 µs of the
 * request's ~170, switching a prototype V8 has seen before ~0.1 µs.
 */
const withBodyPrototypes = new WeakMap<object, object>();

function answerBodyFrom(request: Request, body: Buffer): void {
  const base = Object.getPrototypeOf(request) as object;
  let prototype = withBodyPrototypes.get(base);
  if (!prototype) {
    prototype = Object.create(base, bodyMethods) as object;
    withBodyPrototypes.set(base, prototype);
  }
  (request as WithBody)[preloaded] = { body, used: false };
  Object.setPrototypeOf(request, prototype);
}

/**
 * The API's own 413 text (and CORS, so a page sees it). The rest of the upload is left to Node, which reads and drops it
 * to keep the connection (bounded by the server's request timeout): closing at once would reset a connection with
 * unread data, and the client could lose the answer with it.
 */
function bodyTooLarge(request: Request, limit: number): Response {
  const api = new URL(request.url).pathname.startsWith("/api/");
  return new Response(bodyTooLargeText(limit), {
    status: 413,
    headers: { "content-type": "text/plain; charset=utf-8", ...(api ? corsHeaders : {}) },
  });
}

/** `handler` once the request's body is held, up to `limit` bytes (the API's 413 past it), read by preloadBody. */
export function withBodyLimit(
  request: Request,
  env: HttpBindings | Http2Bindings | undefined,
  limit: number,
  handler: (request: Request) => Response | Promise<Response>,
): Response | Promise<Response> {
  if (!(env?.incoming instanceof IncomingMessage)) return handler(request);
  const preloading = preloadBody(request, env.incoming, limit);
  if (preloading === "too-large") return bodyTooLarge(request, limit);
  return preloading
    ? preloading.then((outcome) => (outcome === "too-large" ? bodyTooLarge(request, limit) : handler(request)))
    : handler(request);
}
