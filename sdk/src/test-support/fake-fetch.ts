import type { FetchLike } from "../transport/transport.ts";

/** Test double for `fetch` (design: fetch is injected): records every call and answers from a handler. */

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  init: RequestInit;
}

export type Responder = (call: RecordedCall, index: number) => Response | Promise<Response>;

export interface FakeFetch {
  fetch: FetchLike;
  calls: RecordedCall[];
}

function headersOf(init: RequestInit): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

export function fakeFetch(responder: Responder): FakeFetch {
  const calls: RecordedCall[] = [];
  const fetch: FetchLike = async (url, init) => {
    const call: RecordedCall = {
      url,
      method: init.method ?? "GET",
      headers: headersOf(init),
      body: typeof init.body === "string" ? init.body : undefined,
      init,
    };
    calls.push(call);
    return responder(call, calls.length - 1);
  };
  return { fetch, calls };
}

/** Answers the responders in order, one per call; the last one repeats. */
export function sequence(...responders: Responder[]): Responder {
  return (call, index) => {
    const r = responders[Math.min(index, responders.length - 1)];
    if (!r) throw new Error("sequence() needs at least one responder");
    return r(call, index);
  };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** A known-error response as the fake provider sends it with override-error-status (protocol.md §3.1). */
export function knownError(
  code: string,
  status: number,
  details?: Record<string, unknown>,
  error = "message",
): Response {
  return json({ code, error, ...(details ? { details } : {}) }, 200, {
    "x-stack-known-error": code,
    "x-stack-actual-status": String(status),
  });
}

export const networkFailure: Responder = () => {
  throw new TypeError("fetch failed");
};

/** A sleep that records the requested waits instead of waiting. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
}
