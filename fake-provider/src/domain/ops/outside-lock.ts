import type { OpContext } from "./context.ts";

export type { AfterCommit, InTransaction } from "./context.ts";

/**
 * Work an operation must not do while it holds the store's lock: running an email's own code (a template or theme
 * submitted by a caller, which may loop until its deadline). Every other request waits for the lock, so an operation
 * hands such work back to runOp (domain/run-op.ts), which commits the transaction, does the work with no lock held, and
 * goes on in a transaction of its own. Two forms:
 *
 * - an operation that needs the work's result answers `outsideLock(work, resume)`: `work` runs once the transaction has
 *   committed, from what the operation read (a snapshot of its inputs, never the live tables), and `resume` gets its
 *   result in a new transaction, re-reading anything that may have changed meanwhile;
 * - an operation that only causes work (emails to render after send-email queued them) registers it with
 *   `ctx.afterCommit(work)`: it runs after the commit, opening its own transactions, before the request answers.
 *
 * A request still answers only when all of it is done, and work runs in the order it was asked for, so a library user's
 * requests give the same outcomes in the same order as before; other requests may now run in between.
 */
export class OutsideLock<R> {
  constructor(
    readonly work: () => Promise<unknown>,
    readonly resume: (ctx: OpContext, value: unknown) => Step<R> | Promise<Step<R>>,
  ) {}

  /** The same steps, their final result passed through `f` (in the last step's transaction). */
  map<S>(f: (value: R, ctx: OpContext) => S | Promise<S>): OutsideLock<S> {
    return new OutsideLock<S>(this.work, async (ctx, value) => {
      const next = await this.resume(ctx, value);
      return next instanceof OutsideLock ? next.map(f) : f(next, ctx);
    });
  }
}

/** An operation's result: its value, or work to do outside the lock and how to go on from its result. */
export type Step<R> = R | OutsideLock<R>;

export function outsideLock<T, R>(
  work: () => Promise<T>,
  resume: (ctx: OpContext, value: T) => Step<R> | Promise<Step<R>>,
): OutsideLock<R> {
  return new OutsideLock<R>(work, resume as (ctx: OpContext, value: unknown) => Step<R> | Promise<Step<R>>);
}

/** A result read in a transaction of its own once the request's after-commit work is done (what that work changed). */
export const readAfterWork = <R>(read: (ctx: OpContext) => Step<R> | Promise<Step<R>>): OutsideLock<R> =>
  outsideLock(() => Promise.resolve(), read);

/** `step`'s result passed through `f`: at once for a value, in the last transaction for work outside the lock. */
export function mapStep<R, S>(step: Step<R>, f: (value: R, ctx: OpContext) => S, ctx: OpContext): Step<S> {
  return step instanceof OutsideLock ? step.map(f) : f(step, ctx);
}
