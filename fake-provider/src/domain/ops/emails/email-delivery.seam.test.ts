import { describe, expect, it } from "vitest";
import { opSeam } from "../../../test-support/op-seam.ts";
import { activateCapacityBoost, deliveryInfo } from "./email-delivery.ts";

/** The sending capacity and its boost (POST /emails/capacity-boost), at the ops' seam. */

const HOUR = 3_600_000;

describe("activateCapacityBoost", () => {
  it("boosts for four hours, four times the rate, from the project as the tables hold it", async () => {
    const seam = opSeam();
    const before = seam.project();
    const base = (await seam.ok((ctx) => deliveryInfo(ctx, seam.project()))).capacity.rate_per_second;
    const out = await seam.ok((ctx) => activateCapacityBoost(ctx, before));
    expect(out.expires_at).toBe(new Date(seam.clock.now() + 4 * HOUR).toISOString());
    expect(seam.project().emailCapacityBoostExpiresAtMillis).toBe(seam.clock.now() + 4 * HOUR);
    const boosted = await seam.ok((ctx) => deliveryInfo(ctx, seam.project()));
    expect(boosted.capacity).toMatchObject({
      is_boost_active: true,
      boost_multiplier: 4,
      rate_per_second: base * 4,
      boost_expires_at: out.expires_at,
    });
  });

  it("refuses a second boost while one runs (EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE with its expiry), even given the record from before it", async () => {
    const seam = opSeam();
    const stale = seam.project();
    const first = await seam.ok((ctx) => activateCapacityBoost(ctx, stale));
    seam.clock.advance(HOUR);
    const error = await seam.refuses((ctx) => activateCapacityBoost(ctx, stale), "EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE");
    expect(error.details).toEqual({ expires_at: first.expires_at });
    // Once it has run out, another may start.
    seam.clock.advance(3 * HOUR);
    expect((await seam.run((ctx) => activateCapacityBoost(ctx, stale))).ok).toBe(true);
  });
});
