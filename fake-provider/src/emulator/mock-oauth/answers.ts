import { stringFields } from "../../api/http/parse.ts";

/**
 * The mock OAuth server's answers (server.ts), shaped as the real development mock server's: never cached, naming
 * Express, redirects as 303s, its cookies HttpOnly and SameSite=Lax.
 */

const noStore = { "cache-control": "no-store" };

/** Every answer names Express: the real mock server's do, and the real suite's header snapshots show it. */
const poweredBy = { "x-powered-by": "Express" };

export function htmlPage(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", ...noStore, ...poweredBy },
  });
}

export function jsonAnswer(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...noStore, ...poweredBy, ...headers },
  });
}

/** A GET's redirect carries a short HTML body (as web frameworks write one); a form POST's carries none. */
export function redirect(location: string, options: { body: boolean; cookies?: string[] }): Response {
  const headers = new Headers({ location, ...noStore, ...poweredBy });
  for (const cookie of options.cookies ?? []) headers.append("set-cookie", cookie);
  if (!options.body) {
    // No body; the type is named because Node servers (@hono/node-server) would call a typeless answer text/plain.
    headers.set("content-type", "application/octet-stream");
    headers.set("content-length", "0");
    return new Response(null, { status: 303, headers });
  }
  headers.set("content-type", "text/html; charset=utf-8");
  const escaped = location.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
  return new Response(`<p>Redirecting to <a href="${escaped}">${escaped}</a>.</p>`, { status: 303, headers });
}

export const cookie = (name: string, value: string, path: string, maxAgeSeconds: number) =>
  `${name}=${value}; Path=${path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax`;

/** Form or JSON fields of a POST body. */
export async function fields(request: Request): Promise<Record<string, string>> {
  return stringFields(request.headers.get("content-type") ?? "", await request.text());
}
