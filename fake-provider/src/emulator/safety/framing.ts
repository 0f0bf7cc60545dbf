import type { Context, Next } from "hono";
import { urlOf } from "../../api/http/request-url.ts";

/**
 * The emulator's own HTML pages (the dashboard, the hosted handler pages, the mock identity provider, checkout, the API
 * reference) may be shown only by pages of their own origin. Without this a page on any site could frame the dashboard
 * and turn one hidden click into "Clear outbox" (clickjacking): the control plane trusts its own origin, and a framed
 * page is its own origin. Both headers, because `frame-ancestors` is the standard and `X-Frame-Options` is what older
 * browsers read. The API's answers are the real service's wire and are left as they are (its unsubscribe page included).
 */
export const FRAME_ANCESTORS_POLICY = "frame-ancestors 'self'";
export const FRAME_OPTIONS = "SAMEORIGIN";

const isHtml = (response: Response) =>
  (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/html");

/**
 * The response with both headers when it is an HTML page; anything else as it is. A page's own Content-Security-Policy
 * stays: a second policy is added beside it (browsers enforce every policy they are sent).
 */
export function forbidFraming(response: Response): Response {
  if (!isHtml(response)) return response;
  let out = response;
  try {
    setFrameHeaders(out.headers);
  } catch {
    // Immutable headers (a fetched answer): a copy with the same body stream.
    out = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: new Headers(response.headers),
    });
    setFrameHeaders(out.headers);
  }
  return out;
}

function setFrameHeaders(headers: Headers): void {
  headers.set("x-frame-options", FRAME_OPTIONS);
  const policies = headers.get("content-security-policy");
  if (!policies?.includes("frame-ancestors")) headers.append("content-security-policy", FRAME_ANCESTORS_POLICY);
}

/** Hono middleware: the answer of every path outside the API (`/api/*`) as forbidFraming makes it. */
export async function framingGuard(c: Context, next: Next): Promise<void> {
  await next();
  if (urlOf(c.req.raw).pathname.startsWith("/api/")) return;
  const framed = forbidFraming(c.res);
  if (framed !== c.res) c.res = framed;
}
