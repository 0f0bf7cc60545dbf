import type { RandomSource } from "@authsim/sdk/runtime";
import type { OpContext, ProviderSettings } from "./domain/ops/context.ts";
import type { FakeProvider } from "./provider.ts";
import type { Tables } from "./domain/store/store.ts";

/**
 * Running an operation outside a route (the seed, the /__emulator control plane): the one place that builds its
 * context, so every such write sees the provider's clock, random source and settings as a route's would.
 */

/** An operation's context on a transaction's tables. */
export function opContextOn(tables: Tables, now: number, random: RandomSource, settings: ProviderSettings): OpContext {
  return { tables, now, random, settings, keepOnFailure: (write) => write(tables) };
}

/** One transaction on the provider's store, with the provider's clock, random source and settings. */
export function runOp<R>(provider: Pick<FakeProvider, "store" | "clock" | "random" | "settings">, operation: (ctx: OpContext) => R): Promise<R> {
  return provider.store.transact((tables) => operation(opContextOn(tables, provider.clock.now(), provider.random, provider.settings)));
}
