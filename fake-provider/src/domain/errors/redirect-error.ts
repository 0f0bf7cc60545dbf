import type { KnownErrorException } from "./known-error.ts";

/**
 * A refused request whose answer is a redirect rather than an error body: the OAuth callback sends the browser back to
 * the app's error URL with the known error in the query (protocol.md §7.5 step 2), with a 307 as upstream's framework
 * redirects. Thrown like any error, so the request's writes roll back as for every refusal.
 */
export class RedirectingError extends Error {
  constructor(
    readonly location: string,
    readonly error: KnownErrorException,
    readonly status = 307,
    /** Extra response headers (e.g. the spent inner-state cookie's deletion). */
    readonly headers: [string, string][] = [],
  ) {
    super(`${error.code}: redirecting to ${location}`);
    this.name = "RedirectingError";
  }

  response(): Response {
    const headers = new Headers({ location: this.location });
    for (const [name, value] of this.headers) headers.append(name, value);
    return new Response(null, { status: this.status, headers });
  }
}
