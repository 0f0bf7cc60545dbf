import type { RandomSource } from "@authsim/sdk/runtime";
import type { OpContext, ProviderSettings } from "./ops/context.ts";
import type { Store, Tables } from "./store/store.ts";
import { clearAnnounced, publishAnnounced } from "./ops/webhook-events.ts";

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

/** An operation's context on a transaction's tables (the seed's, which runs synchronously: nothing to keep there). */
export function opContextOn(tables: Tables, now: number, random: RandomSource, settings: ProviderSettings): OpContext {
  return { tables, now, random, settings, keepOnFailure: (write) => write(tables) };
}

/**
 * One transaction on the store, the clock read once at its start. A write the operation passed to `keepOnFailure` is
 * applied at once and, if the operation throws (so the transaction is rolled back), again in a transaction of its own
 * before the error is rethrown: a refused request still leaves it behind (failed code guesses, OpContext).
 */
export async function runOp<R>(deps: OpDeps, operation: (ctx: OpContext) => R | Promise<R>, extra: Pick<OpContext, "endUser"> = {}): Promise<R> {
  const durable: ((tables: Tables) => void)[] = [];
  try {
    return await deps.store.transact(async (tables) => {
      const keepOnFailure = (write: (t: Tables) => void) => {
        durable.push(write);
        write(tables);
      };
      // The changes the operation announces become webhook messages once it has finished (domain/ops/webhook-events.ts).
      clearAnnounced(tables);
      const ctx = { ...opContextOn(tables, deps.clock.now(), deps.random, deps.settings), keepOnFailure, ...extra };
      const result = await operation(ctx);
      publishAnnounced(ctx);
      return result;
    });
  } catch (error) {
    if (durable.length > 0) await deps.store.transact((tables) => durable.forEach((write) => write(tables)));
    throw error;
  }
}
