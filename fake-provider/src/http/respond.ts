import { headerNames, rebranded } from "@authsim/sdk/contract";
import type { KnownErrorException } from "./known-error.ts";

const JSON_TYPE = "application/json; charset=utf-8";
const TEXT_TYPE = "text/plain; charset=utf-8";

export function json(body: unknown, status = 200, extraHeaders: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_TYPE, ...extraHeaders } });
}

export function text(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "content-type": TEXT_TYPE } });
}

/** Known errors carry the code in both header families (the published SDK reads x-hexclave-*, ours x-stack-*). */
export function knownErrorResponse(error: KnownErrorException): Response {
  return new Response(JSON.stringify(error.body(), null, 2), {
    status: error.status,
    headers: {
      "content-type": JSON_TYPE,
      [headerNames.knownError]: error.code,
      [rebranded(headerNames.knownError)]: error.code,
    },
  });
}

/**
 * The override-error-status convention (protocol.md §2.1–2.2): when the request asks for it, a 4xx answer is sent as
 * 200 with the real status in x-stack-actual-status / x-hexclave-actual-status.
 */
export function applyOverrideErrorStatus(response: Response, requested: boolean): Response {
  if (!requested || response.status < 400 || response.status >= 500) return response;
  const headers = new Headers(response.headers);
  headers.set(headerNames.actualStatus, String(response.status));
  headers.set(rebranded(headerNames.actualStatus), String(response.status));
  return new Response(response.body, { status: 200, headers });
}
