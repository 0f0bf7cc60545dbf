import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { expectJson, expectKnownError, newProvider } from "../../../test-support/api.ts";
import { changeQuantity, quantity, useTestCatalogue } from "../../../test-support/payments.ts";

/**
 * Item quantities against a model (spec §4 "Item quantity", §9 allow_negative): random sequences of grants (some
 * expiring), charges with and without allow_negative, and clock moves. After every step the provider's quantity equals
 * the model's sum of live changes; a charge without allow_negative is refused exactly when the live quantity cannot
 * cover it, and leaves nothing behind. (Without allow_negative a change never takes the quantity below zero; a grant
 * that expires later still can, as upstream's ledger does, so "never negative" is checked right after each change, and
 * a grant that leaves a negative quantity still negative is refused like a charge, as upstream refuses it.)
 * fast-check shrinks a failing sequence to a minimal one.
 */

type Step =
  | { kind: "grant"; amount: number; ttlMillis: number | null; allowNegative: boolean }
  | { kind: "charge"; amount: number; allowNegative: boolean }
  | { kind: "advance"; millis: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("grant" as const),
    amount: fc.integer({ min: 0, max: 50 }),
    ttlMillis: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
    allowNegative: fc.boolean(),
  }),
  // false is what the SDK's tryDecreaseQuantity sends.
  fc.record({
    kind: fc.constant("charge" as const),
    amount: fc.integer({ min: 0, max: 60 }),
    allowNegative: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("advance" as const), millis: fc.integer({ min: 0, max: 6_000 }) }),
);

/** The whole rule in a few lines: a change counts while now < its expiry. */
class Model {
  private readonly changes: { quantity: number; expiresAt: number | null }[] = [];
  constructor(private now: number) {}
  live(): number {
    return this.changes.reduce(
      (sum, c) => (c.expiresAt === null || this.now < c.expiresAt ? sum + c.quantity : sum),
      0,
    );
  }
  add(quantity: number, expiresAt: number | null): void {
    this.changes.push({ quantity, expiresAt });
  }
  advance(millis: number): void {
    this.now += millis;
  }
}

const provider = newProvider();
await useTestCatalogue(provider);
afterAll(() => {
  expect(provider.unexpected).toEqual([]);
});
let customers = 0;

describe("item quantity model", () => {
  it("matches the model for any sequence of grants, charges and clock moves", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        // A fresh custom customer per run: custom ids always exist, so no setup is needed.
        customers += 1;
        const target = { type: "custom", id: `model-${customers}`, item: "tokens" };
        const model = new Model(provider.clock.now());
        for (const s of steps) {
          if (s.kind === "advance") {
            provider.clock.advance(s.millis);
            model.advance(s.millis);
          } else {
            // 0 - amount, not -amount: a charge of 0 is delta 0, which JSON sends as 0 and never -0.
            const delta = s.kind === "grant" ? s.amount : 0 - s.amount;
            const expiresAt = s.kind === "grant" && s.ttlMillis !== null ? provider.clock.now() + s.ttlMillis : null;
            const body = { delta, ...(expiresAt === null ? {} : { expires_at: new Date(expiresAt).toISOString() }) };
            const refused = !s.allowNegative && model.live() + delta < 0;
            const response = await changeQuantity(provider, target, body, { allowNegative: s.allowNegative });
            if (refused) {
              const refusal = await expectKnownError(response, "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", 400);
              expect(refusal.details).toEqual({ item_id: "tokens", customer_id: target.id, quantity: delta });
            } else {
              await expectJson(response);
              model.add(delta, expiresAt);
              // Without allow_negative no change leaves the quantity below zero.
              if (!s.allowNegative) expect(model.live()).toBeGreaterThanOrEqual(0);
            }
          }
          expect(await quantity(provider, target.type, target.id, target.item)).toBe(model.live());
        }
      }),
      { numRuns: 60 },
    );
    // Some 1,500 requests: more than vitest's default 5 s on a busy machine.
  }, 60_000);
});
