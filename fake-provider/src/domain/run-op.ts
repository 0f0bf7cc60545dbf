import type { RandomSource } from "@authsim/sdk/runtime";
import type { AfterCommit, InTransaction, OpContext, ProviderSettings } from "./ops/context.ts";
import { OutsideLock, type Step } from "./ops/outside-lock.ts";
import type { Store, Tables } from "./store/store.ts";
import { clearAnnounced, publishAnnounced } from "./ops/webhooks/webhook-events.ts";

/**
 * Running an operation in a transaction: the one place that builds its context, so every write — a route's, the
 * /__emulator control plane's, the mock OAuth server's, the email queue's step — sees the provider's clock, random
 * source and settings, and keeps what it asked to keep on failure, the same way.
 */

/** What running an operation needs: the store, and what its context is built from. */
export interface OpDeps {
  store: Store;
  clock: { now(): number };
  random: RandomSource;
  settings: ProviderSettings;
}

/**
 * An operation's context on a transaction's tables (the seed's, which runs synchronously: nothing to keep there, and no
 * work after it).
 */
export function opContextOn(tables: Tables, now: number, random: RandomSource, settings: ProviderSettings): OpContext {
  return {
    tables,
    now,
    random,
    settings,
    keepOnFailure: (write) => write(tables),
    afterCommit: () => {
      throw new Error("Work after the commit needs a request's transaction (runOp), not the seed's.");
    },
  };
}

/**
 * Runs an operation, the clock read once at the start of each transaction. Its writes happen in one transaction, and
 * the store's lock is never held across work the operation hands back (domain/ops/outside-lock.ts): work registered
 * with `afterCommit` runs once the transaction has committed, and a result that is `outsideLock(work, resume)` has its
 * work done then and `resume` run in a new transaction, as many times as it asks. The result is the last value.
 *
 * A write the operation passed to `keepOnFailure` is applied at once and, if the transaction is rolled back, again in a
 * transaction of its own before the error is rethrown: a refused request still leaves it behind (failed code guesses).
 */
export async function runOp<R>(
  deps: OpDeps,
  operation: (ctx: OpContext) => Step<R> | Promise<Step<R>>,
  extra: Pick<OpContext, "endUser"> = {},
): Promise<R> {
  const inTransaction: InTransaction = (op) => runOp(deps, op, extra);
  let step = await transaction(deps, operation, extra, inTransaction);
  while (step instanceof OutsideLock) {
    const { resume } = step;
    const value = await step.work();
    step = await transaction(deps, (ctx) => resume(ctx, value), extra, inTransaction);
  }
  return step;
}

async function transaction<R>(
  deps: OpDeps,
  operation: (ctx: OpContext) => R | Promise<R>,
  extra: Pick<OpContext, "endUser">,
  inTransaction: InTransaction,
): Promise<R> {
  const durable: ((tables: Tables) => void)[] = [];
  const after: AfterCommit[] = [];
  let result: R;
  try {
    result = await deps.store.transact(async (tables) => {
      const keepOnFailure = (write: (t: Tables) => void) => {
        durable.push(write);
        write(tables);
      };
      const afterCommit = (work: AfterCommit) => void after.push(work);
      // The changes the operation announces become webhook messages once it has finished (domain/ops/webhooks/webhook-events.ts).
      clearAnnounced(tables);
      const ctx = {
        ...opContextOn(tables, deps.clock.now(), deps.random, deps.settings),
        keepOnFailure,
        afterCommit,
        ...extra,
      };
      const value = await operation(ctx);
      publishAnnounced(ctx);
      return value;
    });
  } catch (error) {
    if (durable.length > 0) await deps.store.transact((tables) => durable.forEach((write) => write(tables)));
    throw error;
  }
  for (const work of after) await work(inTransaction);
  return result;
}
