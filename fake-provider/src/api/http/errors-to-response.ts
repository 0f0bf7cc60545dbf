import type { HeaderFamily } from "@authsim/sdk/contract";
import { KnownErrorException, StatusError } from "../../domain/errors/known-error.ts";
import { responseHeadersOf } from "../../domain/errors/error-headers.ts";
import { RedirectingError } from "../../domain/errors/redirect-error.ts";
import { knownErrorResponse, text } from "./respond.ts";

/**
 * Maps anything an op throws to a response: known errors to the catalogue shape in the caller's header family, the
 * rest to plain text.
 */
export function errorToResponse(
  error: unknown,
  onUnexpected: (error: unknown) => void,
  family: HeaderFamily,
): Response {
  const answer = refusal(error, family);
  if (answer) {
    for (const [name, value] of responseHeadersOf(error)) answer.headers.append(name, value);
    return answer;
  }
  onUnexpected(error);
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  // The development-mode text of protocol.md §1: the emulator is always a development server.
  return text(`Internal Server Error. The error message follows, but will be stripped in production. ${detail}`, 500);
}

function refusal(error: unknown, family: HeaderFamily): Response | null {
  if (error instanceof KnownErrorException) return knownErrorResponse(error, family);
  if (error instanceof RedirectingError) return error.response();
  if (error instanceof StatusError) return text(error.message, error.status);
  return null;
}
