import {
  knownErrorMessage,
  knownErrorSpec,
  type ConcreteKnownErrorCode,
  type HeaderFamily,
  type KnownErrorBody,
  type KnownErrorDetails,
} from "@authsim/sdk/contract";

/**
 * Thrown by ops and the auth layer; the app turns it into the wire shape of protocol.md §3.1. Throw sites name a code
 * and its details only: status and message come from the catalogue.
 */
export class KnownErrorException extends Error {
  readonly code: ConcreteKnownErrorCode;
  readonly status: number;
  readonly details: KnownErrorDetails | undefined;
  readonly #extra: Record<string, unknown>;

  constructor(code: ConcreteKnownErrorCode, details?: KnownErrorDetails, extra: Record<string, unknown> = {}) {
    const spec = knownErrorSpec(code);
    super(knownErrorMessage(code, details, extra));
    this.name = "KnownErrorException";
    this.code = code;
    this.status = spec.status ?? 500;
    this.details = details && Object.keys(details).length > 0 ? details : undefined;
    this.#extra = extra;
  }

  /** The message worded for a caller of `family` (a few name a header or the product). */
  messageFor(family: HeaderFamily): string {
    return knownErrorMessage(this.code, this.details, this.#extra, family);
  }

  body(family: HeaderFamily): KnownErrorBody {
    const error = this.messageFor(family);
    return this.details === undefined ? { code: this.code, error } : { code: this.code, details: this.details, error };
  }
}

export const knownError = (
  code: ConcreteKnownErrorCode,
  details?: KnownErrorDetails,
  extra?: Record<string, unknown>,
) => new KnownErrorException(code, details, extra);

/** A plain-text error that is not a known error (protocol.md §1, "Non-known StatusError"). */
export class StatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "StatusError";
  }
}
