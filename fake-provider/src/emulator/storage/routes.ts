import { Hono } from "hono";
import { base64ToBytes } from "@authsim/sdk/runtime";
import type { Store } from "../../domain/store/store.ts";
import { fetchUnderPrefix } from "../../api/http/request-url.ts";
import { STORAGE_PREFIX, storedObject } from "../../domain/ops/storage/uploaded-images.ts";

export { STORAGE_PREFIX } from "../../domain/ops/storage/uploaded-images.ts";

/**
 * The storage server of the real development setup (an S3 stand-in on <prefix>21), reduced to what its public bucket
 * answers a browser: GET and HEAD of an object by `/<bucket>/<key>`, the uploaded bytes with their image type. Served
 * under STORAGE_PREFIX on the API's origin (library mode: `provider.fetch`) and at the root of the dev server's storage
 * port (storagePortFetch).
 *
 * The bytes are a caller's upload: they go out only as one of the image types their first bytes were recognised as
 * (domain/ops/storage/uploaded-images.ts), never sniffed into something else (nosniff), and with a policy that runs
 * nothing should a browser open one as a page. A public bucket: any origin may read it, as an <img> may.
 */
export function storageRoutes(store: Store): Hono {
  const app = new Hono();
  const answer = (bucket: string, key: string) => {
    const object = storedObject(store.read, bucket, key);
    if (!object) return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
    const bytes = base64ToBytes(object.base64);
    return new Response(bytes, {
      status: 200,
      headers: {
        "content-type": object.contentType,
        "content-length": String(bytes.byteLength),
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "access-control-allow-origin": "*",
        "cache-control": "public, max-age=31536000, immutable",
      },
    });
  };
  // Object keys have slashes (`<folder>/<uuid>.<format>`): everything after the bucket is the key.
  const keyOf = (path: string, bucket: string) =>
    decodeURIComponent(path.slice(path.indexOf(`/${bucket}/`) + bucket.length + 2));
  // GET only (Hono answers HEAD from it, without the body).
  app.get("/:bucket/*", (c) => answer(c.req.param("bucket"), keyOf(c.req.path, c.req.param("bucket"))));
  return app;
}

/** What answers on the dev server's storage port: the bucket at the root, as the real setup's storage server. */
export const storagePortFetch = (
  appFetch: (request: Request) => Response | Promise<Response>,
): ((request: Request) => Response | Promise<Response>) => fetchUnderPrefix(STORAGE_PREFIX, appFetch);
