import fc from "fast-check";
import { describe, expect } from "vitest";
import { DataVaultDecryptionError } from "@authsim/sdk";
import { callerHeaders } from "@authsim/sdk/contract";
import type { Target } from "../targets.ts";
import { NO_PAYMENTS_CONFIG_REASON, useConformanceCatalogue } from "./payments-support.ts";
import { expectKnownError, itIf, serverApp, uniqueTag, type Requirement } from "./support.ts";

/**
 * The encrypted data vault end to end (spec §3, §5, §8, §9; sdk-surface.md §16): the SDK encrypts, the provider stores
 * opaque strings. Each round trip derives keys with 100000 PBKDF2 iterations, so the property runs a handful of cases.
 */

const STORE = "conformance";

/** A fetch that also keeps every request body, to show what the provider was sent. */
function bodyRecordingFetch(target: Target): { fetch: typeof fetch; bodies: string[] } {
  const bodies: string[] = [];
  const recorded: typeof fetch = async (input, init) => {
    if (typeof init?.body === "string") bodies.push(init.body);
    return target.fetch(input, init);
  };
  return { fetch: recorded, bodies };
}

export function dataVaultCases(getTarget: () => Target): void {
  const stores: Requirement = [getTarget().controls !== null, NO_PAYMENTS_CONFIG_REASON];
  const it = itIf(stores);

  describe("data vault", () => {
    it("gives back what was set, for any Unicode key, value and secret; another secret finds nothing", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const store = await serverApp(target).getDataVaultStore(STORE);
      const text = (maxLength: number) => fc.string({ unit: "binary", minLength: 1, maxLength });
      await fc.assert(
        fc.asyncProperty(text(24), text(80), text(24), async (key, value, secret) => {
          const uniqueKey = `${uniqueTag("k")}:${key}`;
          await store.setValue(uniqueKey, value, { secret });
          expect(await store.getValue(uniqueKey, { secret })).toBe(value);
          expect(await store.getValue(uniqueKey, { secret: `${secret}!` })).toBeNull();
        }),
        { numRuns: 5 },
      );
    });

    it("sends the provider neither the key, the value nor the secret, and equal values travel differently", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const recording = bodyRecordingFetch(target);
      const store = await serverApp(target, { fetch: recording.fetch }).getDataVaultStore(STORE);
      const key = uniqueTag("customer");
      await store.setValue(key, "sk_live_0123456789", { secret: "correct horse" });
      await store.setValue(key, "sk_live_0123456789", { secret: "correct horse" });
      expect(await store.getValue(key, { secret: "correct horse" })).toBe("sk_live_0123456789");
      expect(recording.bodies).toHaveLength(3);
      for (const body of recording.bodies) {
        expect(body).not.toContain("sk_live");
        expect(body).not.toContain(key);
        expect(body).not.toContain("correct horse");
      }
      const [first, second] = recording.bodies
        .slice(0, 2)
        .map((b) => JSON.parse(b) as { hashed_key: string; encrypted_value: string });
      expect(first!.hashed_key).toBe(second!.hashed_key);
      expect(first!.encrypted_value).not.toBe(second!.encrypted_value);
    });

    it("a later set replaces the value", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const store = await serverApp(target).getDataVaultStore(STORE);
      const key = uniqueTag("rotating");
      await store.setValue(key, "v1", { secret: "s" });
      await store.setValue(key, "v2", { secret: "s" });
      expect(await store.getValue(key, { secret: "s" })).toBe("v2");
    });

    it("a stored value this secret did not seal fails with the exact decryption message", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const recording = bodyRecordingFetch(target);
      const server = serverApp(target, { fetch: recording.fetch });
      const store = await server.getDataVaultStore(STORE);
      const key = uniqueTag("tampered");
      await store.setValue(key, "original", { secret: "s" });
      const { hashed_key } = JSON.parse(recording.bodies[0]!) as { hashed_key: string };
      // Someone with server access overwrites the ciphertext under the same hashed key.
      const overwrite = await target.fetch(`${target.baseUrl}/api/v1/data-vault/stores/${STORE}/set`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...callerHeaders({
            accessType: "server",
            projectId: target.projectId,
            secretServerKey: target.secretServerKey,
          }),
        },
        body: JSON.stringify({
          hashed_key,
          encrypted_value: btoa("not a ciphertext of this secret, long enough to look like one"),
        }),
      });
      expect(overwrite.status).toBe(200);
      const error = await store.getValue(key, { secret: "s" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataVaultDecryptionError);
      expect((error as Error).message).toBe(
        "Data vault client-side decryption failed. Are you sure you're using the correct secret?",
      );
    });

    it("an undeclared store is DATA_VAULT_STORE_DOES_NOT_EXIST (400); a non-string secret is refused locally", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const server = serverApp(target);
      const missing = await server.getDataVaultStore(uniqueTag("attic"));
      const error = await expectKnownError(
        missing.setValue("k", "v", { secret: "s" }),
        "DATA_VAULT_STORE_DOES_NOT_EXIST",
        400,
      );
      expect(error.details).toEqual({ store_id: missing.id });
      await expectKnownError(missing.getValue("k", { secret: "s" }), "DATA_VAULT_STORE_DOES_NOT_EXIST", 400);
      const store = await server.getDataVaultStore(STORE);
      await expect(store.getValue("k", { secret: 42 } as never)).rejects.toThrow("secret must be a string");
    });
  });
}
