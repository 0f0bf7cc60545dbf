import { headerName, type HeaderFamily } from "@authsim/sdk/contract";
import type { KnownErrorException } from "../../domain/errors/known-error.ts";

const JSON_TYPE = "application/json; charset=utf-8";
const TEXT_TYPE = "text/plain; charset=utf-8";

export function json(body: unknown, status = 200, extraHeaders: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_TYPE, ...extraHeaders } });
}

export function text(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "content-type": TEXT_TYPE } });
}

/**
 * A known error in the wire shape of protocol.md §3.1, its code header and wording in the caller's family
 * (api/http/family.ts): the published SDK reads x-hexclave-* first, ours and the real service's own tests x-stack-*.
 */
export function knownErrorResponse(error: KnownErrorException, family: HeaderFamily): Response {
  return new Response(JSON.stringify(error.body(family), null, 2), {
    status: error.status,
    headers: { "content-type": JSON_TYPE, [headerName("knownError", family)]: error.code },
  });
}

/**
 * The override-error-status convention (protocol.md §2.1–2.2): when the request asks for it, a 4xx answer is sent as
 * 200 with the real status in x-stack-actual-status (or x-hexclave-actual-status, after the caller's family).
 */
export function applyOverrideErrorStatus(response: Response, requested: boolean, family: HeaderFamily): Response {
  if (!requested || response.status < 400 || response.status >= 500) return response;
  const headers = new Headers(response.headers);
  headers.set(headerName("actualStatus", family), String(response.status));
  return new Response(response.body, { status: 200, headers });
}
