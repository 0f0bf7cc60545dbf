import type { KnownErrorCode } from "../contract/errors.ts";
import { isKnownErrorOfType, type KnownErrorOf } from "./known-error.ts";

/** The SDK result wrapper of sdk-surface.md (conventions): expected failures are values, not exceptions. */
export type Result<T, E> = { status: "ok"; data: T } | { status: "error"; error: E };

export function ok<T>(data: T): { status: "ok"; data: T } {
  return { status: "ok", data };
}

export function err<E>(error: E): { status: "error"; error: E } {
  return { status: "error", error };
}

/**
 * Runs `fn`, turning the listed known errors (and their descendants) into error results; anything else is rethrown.
 * This is how a call "catches" the errors the spec names per call (spec §8, "Caught per call by the client").
 */
export async function catchKnown<T, A extends KnownErrorCode>(
  fn: () => Promise<T>,
  ancestors: readonly A[],
): Promise<Result<T, KnownErrorOf<A>>> {
  try {
    return ok(await fn());
  } catch (e) {
    for (const ancestor of ancestors) {
      if (isKnownErrorOfType(e, ancestor)) return err(e);
    }
    throw e;
  }
}
