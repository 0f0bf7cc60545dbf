import { headerNames, rebranded } from "../contract/headers.ts";
import { isKnownErrorCode, type KnownErrorDetails } from "../contract/errors.ts";
import { KnownError, type AnyKnownError } from "./known-error.ts";
import { KnownErrorMismatchError } from "./sdk-errors.ts";

/**
 * Decoding of known-error responses (protocol.md §2.2, §3.1). The published SDK reads the post-rebrand `x-hexclave-*`
 * names first and falls back to `x-stack-*`; we do the same so either kind of backend works.
 */

export interface HeaderSource {
  get(name: string): string | null;
}

function firstHeader(headers: HeaderSource, legacyName: string): string | null {
  return headers.get(rebranded(legacyName)) ?? headers.get(legacyName);
}

/**
 * The real status of a response: we always send override-error-status, so a 4xx may arrive as 200 with the real
 * status in `x-*-actual-status` (protocol.md §2.2); rebuild it before anything else.
 */
export function actualStatus(status: number, headers: HeaderSource): number {
  const header = firstHeader(headers, headerNames.actualStatus);
  if (header === null) return status;
  const parsed = Number(header);
  return Number.isInteger(parsed) && parsed >= 100 && parsed <= 599 ? parsed : status;
}

export function hasKnownErrorHeader(headers: HeaderSource): boolean {
  return firstHeader(headers, headerNames.knownError) !== null;
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The known error carried by a response, or null when it carries none. A response is a known error only if every
 * known-error header present equals `body.code` (spec §5); otherwise a KnownErrorMismatchError is thrown. A code this
 * SDK does not know becomes UNSUPPORTED_ERROR with `details.originalErrorCode` (spec §8).
 */
export function decodeKnownError(status: number, headers: HeaderSource, bodyText: string): AnyKnownError | null {
  const rebrandedCode = headers.get(rebranded(headerNames.knownError));
  const legacyCode = headers.get(headerNames.knownError);
  const headerCode = rebrandedCode ?? legacyCode;
  if (headerCode === null) return null;

  const body = parseJsonObject(bodyText);
  const bodyCode = body?.code;
  for (const code of [rebrandedCode, legacyCode]) {
    if (code !== null && code !== bodyCode) throw new KnownErrorMismatchError(code, bodyCode);
  }

  const details: KnownErrorDetails =
    body?.details !== null && typeof body?.details === "object" ? (body.details as KnownErrorDetails) : {};
  const serverMessage = typeof body?.error === "string" && body.error.length > 0 ? body.error : undefined;
  const realStatus = actualStatus(status, headers);

  if (!isKnownErrorCode(headerCode)) {
    return new KnownError("UNSUPPORTED_ERROR", { originalErrorCode: headerCode });
  }
  // The server's message is kept when given: passthrough codes (e.g. REFRESH_TOKEN_ERROR) have no fixed text.
  return new KnownError(headerCode, details, { message: serverMessage, status: realStatus }) as AnyKnownError;
}
