/** Reading and writing the cookies the OAuth flow uses (RFC 6265): only what the emulator's pages need. */

export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** An HttpOnly, Lax cookie for the whole site (Secure on https); a max age of 0 deletes it. */
export function cookieHeader(request: Request, name: string, value: string, maxAgeSeconds: number): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** The deletion of a cookie as upstream's framework writes it: empty, whole site, expired at the epoch. */
export function deletedCookieHeader(name: string): string {
  return `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/**
 * The OAuth inner-state cookie as upstream writes it: whole site, an absolute expiry (by the emulator's clock) and a
 * max age, HttpOnly, Secure on https, no SameSite attribute (browsers treat it as Lax).
 */
export function innerStateCookieHeader(
  request: Request,
  name: string,
  maxAgeSeconds: number,
  nowMillis: number,
): string {
  const secure = new URL(request.url).protocol === "https:" ? " Secure;" : "";
  const expires = new Date(nowMillis + maxAgeSeconds * 1000).toUTCString();
  return `${name}=true; Path=/; Expires=${expires}; Max-Age=${maxAgeSeconds};${secure} HttpOnly`;
}
