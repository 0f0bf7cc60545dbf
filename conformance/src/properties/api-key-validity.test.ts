import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headerNames } from "@authsim/sdk/contract";
import { inProcessTarget } from "../targets.ts";
import { signedUpClient } from "../suites/support.ts";

/**
 * spec §4 "API key validity", both readings, over random (expiry, revoke time, now) triples: a key is expired when its
 * expiry is in the past and manually revoked when a revoke time is set; when both hold, the client kit reports
 * "manually-revoked" first and the provider's key check reports expired first. The SDK's key objects (on the clock they
 * share with the provider) and the provider's /user-api-keys/check are compared with this deliberately small model.
 */
type Reason = "expired" | "manually-revoked" | null;

function model(t: { expiresAt: number | null; revokedAt: number | null; now: number }): {
  client: Reason;
  check: Reason;
} {
  const expired = t.expiresAt !== null && t.expiresAt < t.now;
  const revoked = t.revokedAt !== null;
  return {
    client: revoked ? "manually-revoked" : expired ? "expired" : null,
    check: expired ? "expired" : revoked ? "manually-revoked" : null,
  };
}

const checkCode: Record<Exclude<Reason, null>, string> = {
  expired: "API_KEY_EXPIRED",
  "manually-revoked": "API_KEY_REVOKED",
};

/**
 * Offsets from the key's creation, in milliseconds: the expiry (or none), when it is revoked (or never), and how long
 * after that "now" is (a revocation happens before it is read). Small ranges, so "now" often lands exactly on the
 * expiry: the boundary where a key is not yet expired.
 */
const triples = fc.record({
  expiry: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
  revoke: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }),
  after: fc.integer({ min: 0, max: 40 }),
});

describe("property: API-key validity and its two readings (spec §4)", () => {
  it("the client kit and the provider's check agree with the model for any (expiry, revoke time, now)", async () => {
    // One provider and one user for every run; the shared manual clock only moves forward, so each run starts at "now".
    const target = inProcessTarget();
    const clock = target.clock;
    const { user } = await signedUpClient(target);
    await fc.assert(
      fc.asyncProperty(triples, async ({ expiry, revoke, after }) => {
        const createdAt = clock.now();
        const expiresAt = expiry === null ? null : createdAt + expiry;
        const created = await user.createApiKey({
          description: "property",
          expiresAt: expiresAt === null ? null : new Date(expiresAt),
        });
        let revokedAt: number | null = null;
        if (revoke !== null) {
          clock.advance(revoke);
          revokedAt = clock.now();
          await created.revoke();
        }
        clock.advance(after);
        const expected = model({ expiresAt, revokedAt, now: clock.now() });

        // The client reading, from the key as listed after the writes (key objects are snapshots).
        const listed = (await user.listApiKeys()).find((k) => k.id === created.id)!;
        expect(listed.whyInvalid()).toBe(expected.client);
        expect(listed.isValid()).toBe(expected.client === null);

        // The provider's reading, by the exact known error its check answers.
        const response = await target.fetch(`${target.baseUrl}/api/v1/user-api-keys/check`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            [headerNames.accessType]: "server",
            [headerNames.projectId]: target.projectId,
            [headerNames.secretServerKey]: target.secretServerKey,
          },
          body: JSON.stringify({ api_key: created.value }),
        });
        expect(response.headers.get(headerNames.knownError)).toBe(
          expected.check === null ? null : checkCode[expected.check],
        );
        expect(response.status).toBe(expected.check === null ? 200 : 401);
      }),
      { numRuns: 80 },
    );
  });
});
