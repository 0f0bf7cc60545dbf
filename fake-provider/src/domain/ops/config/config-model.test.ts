import { describe, expect, it } from "vitest";
import { DEV, admin, api, expectJson, expectKnownError, request, server } from "../../../test-support/api.ts";
import { useConfigProvider } from "../../../test-support/admin.ts";

/**
 * The config model as the real service's suite drives it (protocol.md §6.5): `updateConfig` of the published kit sends
 * PATCH /internal/config/override/environment, and what it writes is what the payment, data-vault and email code reads.
 */

const { provider, patch, getConfig } = useConfigProvider();
const text = async (response: Response) => [response.status, await response.text()];

describe("config overrides", () => {
  it("refuses an unknown key with the real service's message, naming the first unknown prefix", async () => {
    expect(await text(await patch({ nonExistentField: "x" }))).toEqual([
      400,
      'The key "nonExistentField" is not valid (nested object not found in schema: "nonExistentField").',
    ]);
    expect(await text(await patch({ "payments.items.gems.colour": "red" }))).toEqual([
      400,
      'The key "payments.items.gems.colour" is not valid (nested object not found in schema: "payments.items.gems.colour").',
    ]);
  });

  it("keeps environment-only keys out of the branch level and project keys out of the others", async () => {
    const server = await patch({ "emails.server": { isShared: false, host: "smtp.example.com" } }, "branch");
    expect(server.status).toBe(400);
    expect(await server.text()).toContain("emails.server");
    expect((await patch({ "project.requirePublishableClientKey": true }, "branch")).status).toBe(400);
    expect((await patch({ "teams.allowClientTeamCreation": true }, "project")).status).toBe(400);
  });

  it("creates items that the item endpoints then serve (updateConfig of the published kit)", async () => {
    await expectJson(await patch({ payments: { items: { gems: { displayName: "Gems", customerType: "custom" } } } }));
    const item = await expectJson(await api(provider(), "/payments/items/custom/acme/gems", { headers: server() }));
    expect(item).toEqual({ id: "gems", display_name: "Gems", quantity: 0 });
    expect((await getConfig()).payments).toMatchObject({
      items: { gems: { displayName: "Gems", customerType: "custom" } },
      testMode: true,
    });
    // The control view reads the same rendered config.
    const control = await expectJson<{ payments: { items: Record<string, unknown> } }>(
      await request(provider(), `/__emulator/projects/${DEV.id}/payments-config`),
    );
    expect(control.payments.items.gems).toEqual({ display_name: "Gems", customer_type: "custom" });
  });

  it("creates products a purchase URL can name, and null removes an entry", async () => {
    await expectJson(
      await patch({
        "payments.items.tokens": { displayName: "Tokens", customerType: "custom" },
        "payments.products.token-pack": {
          displayName: "Token pack",
          customerType: "custom",
          serverOnly: false,
          stackable: true,
          prices: { once: { USD: "5" } },
          includedItems: { tokens: { quantity: 10 } },
        },
      }),
    );
    await expectJson(await api(provider(), "/internal/payments/setup", { method: "POST", headers: admin(), json: {} }));
    const url = await api(provider(), "/payments/purchases/create-purchase-url", {
      headers: server(),
      json: { customer_type: "custom", customer_id: "acme", product_id: "token-pack" },
    });
    expect(url.status).toBe(200);
    await expectJson(await patch({ "payments.products.token-pack": null }));
    await expectKnownError(
      await api(provider(), "/payments/purchases/create-purchase-url", {
        headers: server(),
        json: { customer_type: "custom", customer_id: "acme", product_id: "token-pack" },
      }),
      "PRODUCT_DOES_NOT_EXIST",
      400,
    );
  });

  it("refuses a product whose product line is missing or serves another customer type", async () => {
    const missing = await patch({
      "payments.products.p": { customerType: "user", productLineId: "plans", prices: {}, includedItems: {} },
    });
    expect(await text(missing)).toEqual([
      400,
      'Product "p" specifies product line ID "plans", but that product line does not exist',
    ]);
    const mismatch = await patch({
      "payments.productLines.plans": { customerType: "team" },
      "payments.products.p": { customerType: "user", productLineId: "plans", prices: {}, includedItems: {} },
    });
    expect(await text(mismatch)).toEqual([
      400,
      'Product "p" has customer type "user" but its product line "plans" has customer type "team"',
    ]);
    expect((await getConfig()).payments!.products).not.toHaveProperty("p");
  });

  it("declares vault stores the data vault then accepts", async () => {
    await expectKnownError(
      await api(provider(), "/data-vault/stores/secrets/set", {
        headers: server(),
        json: { hashed_key: "k", encrypted_value: "v" },
      }),
      "DATA_VAULT_STORE_DOES_NOT_EXIST",
      400,
    );
    await expectJson(await patch({ "dataVault.stores.secrets": { displayName: "Secrets" } }));
    await expectJson(
      await api(provider(), "/data-vault/stores/secrets/set", {
        headers: server(),
        json: { hashed_key: "k", encrypted_value: "v" },
      }),
    );
    expect((await getConfig()).dataVault).toEqual({
      stores: { default: { displayName: "Default store" }, secrets: { displayName: "Secrets" } },
    });
  });

  it("sets the email server, which the admin project view shows", async () => {
    await expectJson(
      await patch({
        "emails.server": {
          isShared: false,
          provider: "smtp",
          host: "smtp.example.com",
          port: 587,
          username: "u",
          password: "p",
          senderName: "Acme",
          senderEmail: "noreply@example.com",
        },
      }),
    );
    const project = await expectJson<{ config: { email_config: unknown } }>(
      await api(provider(), "/internal/projects/current", { headers: admin() }),
    );
    expect(project.config.email_config).toEqual({
      type: "standard",
      host: "smtp.example.com",
      port: 587,
      username: "u",
      password: "p",
      sender_name: "Acme",
      sender_email: "noreply@example.com",
    });
    await expectJson(await patch({ "emails.server.isShared": true }));
    expect((await getConfig()).emails!.server).toEqual({ isShared: true, provider: "smtp" });
  });

  it("reset-keys drops a key and its children from one level", async () => {
    await expectJson(
      await patch({ "apps.installed.payments.enabled": true, "onboarding.requireEmailVerification": true }),
    );
    await expectJson(
      await api(provider(), "/internal/config/override/environment/reset-keys", {
        method: "POST",
        headers: admin(),
        json: { keys: ["apps"] },
      }),
    );
    const stored = await expectJson<{ config_string: string }>(
      await api(provider(), "/internal/config/override/environment", { headers: admin() }),
    );
    expect(JSON.parse(stored.config_string)).toEqual({ "onboarding.requireEmailVerification": true });
  });

  it("the control endpoint's PUT replaces the section, overrides included", async () => {
    await expectJson(await patch({ "payments.items.gems": { displayName: "Gems", customerType: "custom" } }));
    await expectJson(
      await request(provider(), `/__emulator/projects/${DEV.id}/payments-config`, {
        method: "PUT",
        json: { payments: { items: { coins: { display_name: "Coins", customer_type: "user" } }, offers: {} } },
      }),
    );
    expect(Object.keys((await getConfig()).payments!.items as object)).toEqual(["coins"]);
  });
});

describe("the branch config's source", () => {
  const put = (body: Record<string, unknown>) =>
    api(provider(), "/internal/config/override/branch", {
      method: "PUT",
      headers: admin(),
      json: { config_string: "{}", ...body },
    });
  const source = async () =>
    (await expectJson<{ source: unknown }>(await api(provider(), "/internal/config/source", { headers: admin() })))
      .source;
  const github = {
    type: "pushed-from-github",
    owner: "acme",
    repo: "app",
    branch: "main",
    commit_hash: "abc123",
    config_file_path: "stack.config.ts",
  };

  it("is unlinked for a new project, set by a branch PUT, kept by PATCHes, and unlinked by DELETE", async () => {
    expect(await source()).toEqual({ type: "unlinked" });
    await expectJson(await put({ source: github }));
    expect(await source()).toEqual(github);
    await expectJson(await patch({ "teams.allowClientTeamCreation": true }, "branch"));
    expect(await source()).toEqual(github);
    await expectJson(await api(provider(), "/internal/config/source", { method: "DELETE", headers: admin() }));
    expect(await source()).toEqual({ type: "unlinked" });
  });

  it("is required by a branch PUT, and must be one of the known kinds", async () => {
    expect(await text(await put({}))).toEqual([400, "source is required for branch level config"]);
    await expectKnownError(await put({ source: { type: "pushed-from-gitlab" } }), "SCHEMA_ERROR", 400);
    await expectKnownError(await put({ source: { type: "pushed-from-github", owner: "acme" } }), "SCHEMA_ERROR", 400);
    await expectJson(
      await api(provider(), "/internal/config/override/environment", {
        method: "PUT",
        headers: admin(),
        json: { config_string: "{}" },
      }),
    );
  });
});
