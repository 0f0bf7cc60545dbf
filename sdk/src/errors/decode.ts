import { headerName, type HeaderFamily, type HeaderKey } from "../contract/headers.ts";
import { isKnownErrorCode, type KnownErrorDetails } from "../contract/errors.ts";
import { KnownError, type AnyKnownError } from "./known-error.ts";
import { KnownErrorMismatchError } from "./sdk-errors.ts";

/**
 * Decoding of known-error responses (protocol.md §2.2, §3.1). A service answers in the header family the request used
 * (the April-2026 one only ever in `x-stack-*`, the rebranded one in both), so each reader takes the family the SDK
 * asked with (`family`, `x-stack-*` for ours: transport/headers.ts) and falls back to the other, so either kind of
 * backend works. The published SDK does the same the other way round.
 */

export interface HeaderSource {
  get(name: string): string | null;
}

const otherFamily = (family: HeaderFamily): HeaderFamily => (family === "stack" ? "hexclave" : "stack");

function firstHeader(headers: HeaderSource, key: HeaderKey, family: HeaderFamily): string | null {
  return headers.get(headerName(key, family)) ?? headers.get(headerName(key, otherFamily(family)));
}

/**
 * The real status of a response: we always send override-error-status, so a 4xx may arrive as 200 with the real
 * status in `x-*-actual-status` (protocol.md §2.2); rebuild it before anything else.
 */
export function actualStatus(status: number, headers: HeaderSource, family: HeaderFamily = "stack"): number {
  const header = firstHeader(headers, "actualStatus", family);
  if (header === null) return status;
  const parsed = Number(header);
  return Number.isInteger(parsed) && parsed >= 100 && parsed <= 599 ? parsed : status;
}

export function hasKnownErrorHeader(headers: HeaderSource, family: HeaderFamily = "stack"): boolean {
  return firstHeader(headers, "knownError", family) !== null;
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The known error carried by a response, or null when it carries none. A response is a known error only if every
 * known-error header present equals `body.code` (spec §5); otherwise a KnownErrorMismatchError is thrown. A code this
 * SDK does not know becomes UNSUPPORTED_ERROR with `details.originalErrorCode` (spec §8).
 */
export function decodeKnownError(
  status: number,
  headers: HeaderSource,
  bodyText: string,
  family: HeaderFamily = "stack",
): AnyKnownError | null {
  const askedCode = headers.get(headerName("knownError", family));
  const otherCode = headers.get(headerName("knownError", otherFamily(family)));
  const headerCode = askedCode ?? otherCode;
  if (headerCode === null) return null;

  const body = parseJsonObject(bodyText);
  const bodyCode = body?.code;
  for (const code of [askedCode, otherCode]) {
    if (code !== null && code !== bodyCode) throw new KnownErrorMismatchError(code, bodyCode);
  }

  const details: KnownErrorDetails =
    body?.details !== null && typeof body?.details === "object" ? (body.details as KnownErrorDetails) : {};
  const serverMessage = typeof body?.error === "string" && body.error.length > 0 ? body.error : undefined;
  const realStatus = actualStatus(status, headers, family);

  if (!isKnownErrorCode(headerCode)) {
    return new KnownError("UNSUPPORTED_ERROR", { originalErrorCode: headerCode });
  }
  // The server's message is kept when given: passthrough codes (e.g. REFRESH_TOKEN_ERROR) have no fixed text.
  return new KnownError(headerCode, details, { message: serverMessage, status: realStatus }) as AnyKnownError;
}
