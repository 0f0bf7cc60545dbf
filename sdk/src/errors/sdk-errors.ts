/**
 * Errors that are not part of the known-error catalogue: transport failures and contract violations. Each carries
 * what a developer needs to diagnose it (spec §8, transport: "a connection error with diagnostics").
 */

/** The request never got an HTTP answer (fetch threw), after any retries. */
export class ConnectionError extends Error {
  override readonly name = "ConnectionError";
  constructor(
    message: string,
    readonly diagnostics: { url: string; method: string; attempts: number; cause: unknown },
  ) {
    super(message, { cause: diagnostics.cause });
  }
}

/** An HTTP error that is not a known error (no known-error header): status and body text (protocol.md §9). */
export class HttpError extends Error {
  override readonly name = "HttpError";
  constructor(
    readonly url: string,
    readonly method: string,
    readonly status: number,
    readonly bodyText: string,
  ) {
    super(`Failed to send request to ${method} ${url}: ${status} ${bodyText}`);
  }
}

/** The known-error header and the body's code disagree, so neither can be trusted (spec §5, protocol.md §2.2). */
export class KnownErrorMismatchError extends Error {
  override readonly name = "KnownErrorMismatchError";
  constructor(
    readonly headerCode: string,
    readonly bodyCode: unknown,
  ) {
    super(
      `Mismatch between the known-error header (${headerCode}) and the error code in the body (${JSON.stringify(bodyCode)}); ` +
        "the response is not a valid known error.",
    );
  }
}

/** A successful response that does not match the contract's schema. */
export class ResponseSchemaError extends Error {
  override readonly name = "ResponseSchemaError";
  constructor(
    readonly url: string,
    readonly issues: string,
  ) {
    super(`The response of ${url} does not match the expected schema: ${issues}`);
  }
}
