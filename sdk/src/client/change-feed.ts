import { API_PREFIX } from "../contract/headers.ts";
import { actualStatus, hasKnownErrorHeader } from "../errors/decode.ts";
import { SDK_HEADER_FAMILY } from "../transport/headers.ts";
import type { FetchLike } from "../transport/transport.ts";

/**
 * Successful writes made through an app's transport. The spec §9 caches refresh what is on screen after each one, so
 * a rename, a new team or a sign-out shows without each area module having to know about the caches. Reads, failed
 * calls and the token endpoint (a refresh changes no data) are not changes.
 */
export interface ChangeFeed {
  /** The fetch to hand the transport: the given one (or the global fetch), observed. */
  wrap(fetch: FetchLike | undefined): FetchLike;
  subscribe(listener: () => void): () => void;
  /** Tells the listeners something changed (also for changes made outside the transport). */
  notify(): void;
}

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const NOT_A_CHANGE = [`${API_PREFIX}/auth/oauth/token`];

export function isChange(
  url: string,
  method: string | undefined,
  response: Pick<Response, "status" | "headers">,
): boolean {
  // A known error may travel with status 200 when the error status is overridden (protocol.md §2): check its headers.
  const status = actualStatus(response.status, response.headers, SDK_HEADER_FAMILY);
  if (status < 200 || status >= 300 || hasKnownErrorHeader(response.headers, SDK_HEADER_FAMILY)) return false;
  if (READ_METHODS.has((method ?? "GET").toUpperCase())) return false;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return false;
  }
  return path.includes(`${API_PREFIX}/`) && !NOT_A_CHANGE.some((p) => path.endsWith(p));
}

export function createChangeFeed(): ChangeFeed {
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  return {
    wrap(fetchFn) {
      const inner: FetchLike = fetchFn ?? ((url, init) => fetch(url, init));
      return async (url, init) => {
        const response = await inner(url, init);
        if (listeners.size > 0 && isChange(url, init.method, response)) notify();
        return response;
      };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    notify,
  };
}
