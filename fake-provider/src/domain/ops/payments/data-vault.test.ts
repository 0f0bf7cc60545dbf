import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  INTERNAL,
  admin,
  api,
  client,
  expectJson,
  expectKnownError,
  families,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { putPaymentsConfig, useTestCatalogue } from "../../../test-support/payments.ts";

/** The data vault's server side (protocol.md §5.13): opaque strings in declared stores, server and admin access only. */

let provider: TestProvider;
beforeEach(async () => {
  provider = newProvider();
  await useTestCatalogue(provider);
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const set = (store: string, body: unknown, headers = server()) =>
  api(provider, `/data-vault/stores/${store}/set`, { headers, json: body });
const get = (store: string, body: unknown, headers = server()) =>
  api(provider, `/data-vault/stores/${store}/get`, { headers, json: body });

describe("/data-vault/stores/{store}/set and /get", () => {
  it("stores an encrypted value under a hashed key and gives it back, with either header family and admin access", async () => {
    for (const family of families) {
      const response = await api(provider, "/data-vault/stores/secrets/set", {
        headers: server(),
        family,
        json: { hashed_key: `k-${family}`, encrypted_value: "AQAB" },
      });
      expect(await expectJson(response)).toEqual({ success: true });
      const read = await api(provider, "/data-vault/stores/secrets/get", {
        headers: admin(),
        family,
        json: { hashed_key: `k-${family}` },
      });
      expect(await expectJson(read)).toEqual({ encrypted_value: "AQAB" });
    }
  });

  it("replaces the value of a key set again, and keeps stores apart", async () => {
    await expectJson(await set("secrets", { hashed_key: "k", encrypted_value: "one" }));
    await expectJson(await set("secrets", { hashed_key: "k", encrypted_value: "two" }));
    await expectJson(await set("notes", { hashed_key: "k", encrypted_value: "note" }));
    expect(await expectJson(await get("secrets", { hashed_key: "k" }))).toEqual({ encrypted_value: "two" });
    expect(await expectJson(await get("notes", { hashed_key: "k" }))).toEqual({ encrypted_value: "note" });
  });

  it("answers DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST (400) for a key never set", async () => {
    const body = await expectKnownError(
      await get("secrets", { hashed_key: "missing" }),
      "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST",
      400,
    );
    expect(body.details).toEqual({ store_id: "secrets", hashed_key: "missing" });
    expect(body.error).toBe("Data vault store with ID secrets does not contain a key with hash missing.");
  });

  it("answers DATA_VAULT_STORE_DOES_NOT_EXIST (400) for a store the project does not declare, on get and set", async () => {
    for (const response of [
      await get("attic", { hashed_key: "k" }),
      await set("attic", { hashed_key: "k", encrypted_value: "v" }),
    ]) {
      const body = await expectKnownError(response, "DATA_VAULT_STORE_DOES_NOT_EXIST", 400);
      expect(body.details).toEqual({ store_id: "attic" });
    }
    const odd = await expectKnownError(
      await get(encodeURIComponent("no such store"), { hashed_key: "k" }),
      "DATA_VAULT_STORE_DOES_NOT_EXIST",
      400,
    );
    expect(odd.details).toEqual({ store_id: "no such store" });
  });

  it("keeps projects apart: a store of the same id elsewhere holds its own values", async () => {
    await putPaymentsConfig(provider, { data_vault: { stores: { secrets: {} } } }, INTERNAL.id);
    await expectJson(await set("secrets", { hashed_key: "k", encrypted_value: "dev" }));
    await expectKnownError(
      await get("secrets", { hashed_key: "k" }, server({}, INTERNAL)),
      "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST",
      400,
    );
  });

  it("is not for clients (INSUFFICIENT_ACCESS_TYPE), even signed in", async () => {
    const user = await signUp(provider);
    await expectKnownError(
      await get("secrets", { hashed_key: "k" }, client({ accessToken: user.access_token })),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
    await expectKnownError(
      await set("secrets", { hashed_key: "k", encrypted_value: "v" }, client()),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });

  it("needs string values (spec §5) and known fields only (SCHEMA_ERROR)", async () => {
    const notString = await expectKnownError(
      await set("secrets", { hashed_key: "k", encrypted_value: 42 }),
      "SCHEMA_ERROR",
      400,
    );
    expect(notString.error).toContain("body.encrypted_value");
    const extra = await expectKnownError(
      await set("secrets", { hashed_key: "k", encrypted_value: "v", plaintext: "oops" }),
      "SCHEMA_ERROR",
      400,
    );
    expect(extra.error).toContain("body contains unknown properties: plaintext");
    await expectKnownError(await get("secrets", {}), "SCHEMA_ERROR", 400);
  });

  it("declares the dev project's default store in the default seed", async () => {
    const fresh = newProvider();
    await expectJson(
      await api(fresh, "/data-vault/stores/default/set", {
        headers: server({}, DEV),
        json: { hashed_key: "k", encrypted_value: "v" },
      }),
    );
    expect(fresh.unexpected).toEqual([]);
  });
});
