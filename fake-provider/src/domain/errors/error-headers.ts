/**
 * Response headers a refusal carries besides its body: the OAuth callback deletes the flow's inner-state cookie
 * whatever the outcome, refusals included. Kept beside the thrown error (not inside it) so a known error stays the
 * same object for everything that inspects it, and the request's writes still roll back as for any refusal.
 */
const extraHeaders = new WeakMap<object, [string, string][]>();

/** Marks `error` to be answered with `headers` too; answers the error, to be thrown. */
export function withResponseHeaders<E>(error: E, headers: readonly [string, string][]): E {
  if (typeof error === "object" && error !== null && headers.length > 0) {
    extraHeaders.set(error, [...(extraHeaders.get(error) ?? []), ...headers]);
  }
  return error;
}

/** The headers `withResponseHeaders` attached to `error` (none for any other). */
export function responseHeadersOf(error: unknown): readonly [string, string][] {
  return typeof error === "object" && error !== null ? (extraHeaders.get(error) ?? []) : [];
}
