import type { catalogue } from "../contract/catalogue.ts";
import {
  isKnownErrorOf,
  knownErrorMessage,
  knownErrorSpec,
  type KnownErrorCode,
  type KnownErrorDetails,
} from "../contract/errors.ts";

/**
 * The SDK side of the known-error catalogue (protocol.md §3). One class, parameterised by its code, so that the union
 * of every `KnownError<C>` is discriminated by `code` and callers can `switch (err.code)` (design rule 2).
 */
type Entry = (typeof catalogue)[number];

/** `A` itself and every code whose parent chain contains `A` (e.g. REFRESH_TOKEN_ERROR → PROVIDER_REJECTED, …). */
export type DescendantCode<A extends KnownErrorCode> =
  | A
  | (Entry extends infer E
      ? E extends { code: infer C; parents: readonly (infer P)[] }
        ? A extends P
          ? C
          : never
        : never
      : never);

export class KnownError<C extends KnownErrorCode = KnownErrorCode> extends Error {
  override readonly name = "KnownError";
  readonly code: C;
  /** The catalogue's status for the code (the status is fixed per code, spec §8); the wire status for abstract codes. */
  readonly status: number;
  readonly details: KnownErrorDetails;

  constructor(code: C, details: KnownErrorDetails = {}, options: { message?: string; status?: number } = {}) {
    super(options.message ?? knownErrorMessage(code, details));
    this.code = code;
    this.status = knownErrorSpec(code).status ?? options.status ?? 500;
    this.details = details;
  }

  /** True when this error is `ancestor` or one of its descendants (protocol.md §3.1: checks follow the parent chain). */
  isInstance<A extends KnownErrorCode>(ancestor: A): this is KnownErrorOf<A> {
    return isKnownErrorOf(this.code, ancestor);
  }
}

export type KnownErrorByCode = { [C in KnownErrorCode]: KnownError<C> };
/** Every known error, as a union discriminated by `code`. */
export type AnyKnownError = KnownErrorByCode[KnownErrorCode];
/** The known errors that `isInstance(A)` accepts, as a discriminated union. */
export type KnownErrorOf<A extends KnownErrorCode> = KnownErrorByCode[DescendantCode<A>];

export function isKnownError(value: unknown): value is AnyKnownError {
  return value instanceof KnownError;
}

/** Narrowing helper for `catch (e)` blocks: `if (isKnownErrorOfType(e, "USER_NOT_FOUND")) …`. */
export function isKnownErrorOfType<A extends KnownErrorCode>(value: unknown, ancestor: A): value is KnownErrorOf<A> {
  return value instanceof KnownError && isKnownErrorOf(value.code, ancestor);
}
