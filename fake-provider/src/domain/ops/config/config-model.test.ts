import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  admin,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  request,
  server,
  type TestProvider,
} from "../../../test-support/api.ts";
import { patchConfigOverride, renderedConfig } from "../../../test-support/admin.ts";

/**
 * The config model as the real service's suite drives it (protocol.md §6.5): `updateConfig` of the published kit sends
 * PATCH /internal/config/override/environment, and what it writes is what the payment, data-vault and email code reads.
 */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const patch = (override: unknown, level?: string) => patchConfigOverride(provider, override, level);
const getConfig = () => renderedConfig(provider);
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
    const item = await expectJson(await api(provider, "/payments/items/custom/acme/gems", { headers: server() }));
    expect(item).toEqual({ id: "gems", display_name: "Gems", quantity: 0 });
    expect((await getConfig()).payments).toMatchObject({
      items: { gems: { displayName: "Gems", customerType: "custom" } },
      testMode: true,
    });
    // The control view reads the same rendered config.
    const control = await expectJson<{ payments: { items: Record<string, unknown> } }>(
      await request(provider, `/__emulator/projects/${DEV.id}/payments-config`),
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
    await expectJson(await api(provider, "/internal/payments/setup", { method: "POST", headers: admin(), json: {} }));
    const url = await api(provider, "/payments/purchases/create-purchase-url", {
      headers: server(),
      json: { customer_type: "custom", customer_id: "acme", product_id: "token-pack" },
    });
    expect(url.status).toBe(200);
    await expectJson(await patch({ "payments.products.token-pack": null }));
    await expectKnownError(
      await api(provider, "/payments/purchases/create-purchase-url", {
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
      await api(provider, "/data-vault/stores/secrets/set", {
        headers: server(),
        json: { hashed_key: "k", encrypted_value: "v" },
      }),
      "DATA_VAULT_STORE_DOES_NOT_EXIST",
      400,
    );
    await expectJson(await patch({ "dataVault.stores.secrets": { displayName: "Secrets" } }));
    await expectJson(
      await api(provider, "/data-vault/stores/secrets/set", {
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
      await api(provider, "/internal/projects/current", { headers: admin() }),
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
      await api(provider, "/internal/config/override/environment/reset-keys", {
        method: "POST",
        headers: admin(),
        json: { keys: ["apps"] },
      }),
    );
    const stored = await expectJson<{ config_string: string }>(
      await api(provider, "/internal/config/override/environment", { headers: admin() }),
    );
    expect(JSON.parse(stored.config_string)).toEqual({ "onboarding.requireEmailVerification": true });
  });

  it("the control endpoint's PUT replaces the section, overrides included", async () => {
    await expectJson(await patch({ "payments.items.gems": { displayName: "Gems", customerType: "custom" } }));
    await expectJson(
      await request(provider, `/__emulator/projects/${DEV.id}/payments-config`, {
        method: "PUT",
        json: { payments: { items: { coins: { display_name: "Coins", customer_type: "user" } }, offers: {} } },
      }),
    );
    expect(Object.keys((await getConfig()).payments!.items as object)).toEqual(["coins"]);
  });
});

describe("the branch config's source", () => {
  const put = (body: Record<string, unknown>) =>
    api(provider, "/internal/config/override/branch", {
      method: "PUT",
      headers: admin(),
      json: { config_string: "{}", ...body },
    });
  const source = async () =>
    (await expectJson<{ source: unknown }>(await api(provider, "/internal/config/source", { headers: admin() })))
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
    await expectJson(await api(provider, "/internal/config/source", { method: "DELETE", headers: admin() }));
    expect(await source()).toEqual({ type: "unlinked" });
  });

  it("is required by a branch PUT, and must be one of the known kinds", async () => {
    expect(await text(await put({}))).toEqual([400, "source is required for branch level config"]);
    await expectKnownError(await put({ source: { type: "pushed-from-gitlab" } }), "SCHEMA_ERROR", 400);
    await expectKnownError(await put({ source: { type: "pushed-from-github", owner: "acme" } }), "SCHEMA_ERROR", 400);
    await expectJson(
      await api(provider, "/internal/config/override/environment", {
        method: "PUT",
        headers: admin(),
        json: { config_string: "{}" },
      }),
    );
  });
});

describe("older config names", () => {
  it("takes offers, groups and catalogs as products and product lines, typing a catalog by its products", async () => {
    await expectJson(
      await patch({
        payments: {
          groups: { plans: { displayName: "Plans" }, unused: { displayName: "Unused" } },
          offers: {
            basic: {
              displayName: "Basic",
              customerType: "team",
              groupId: "plans",
              prices: { m: { USD: "5", interval: [1, "month"] } },
              includedItems: {},
            },
          },
        },
      }),
    );
    const payments = (await getConfig()).payments as { productLines: object; products: Record<string, object> };
    expect(payments.productLines).toEqual({ plans: { displayName: "Plans", customerType: "team" } });
    expect(payments.products.basic).toMatchObject({ productLineId: "plans", customerType: "team" });
  });

  it("adds, updates and removes OAuth providers, which the project view and sign-in then use", async () => {
    await expectJson(await patch({ "auth.oauth.providers": null }));
    expect((await getConfig()).auth?.oauth).toMatchObject({ providers: {} });
    await expectJson(
      await patch({
        "auth.oauth.providers.google": {
          type: "google",
          isShared: false,
          clientId: "id",
          clientSecret: "secret",
          allowSignIn: true,
          allowConnectedAccounts: true,
        },
      }),
    );
    await expectJson(
      await patch({
        "auth.oauth.providers.github": {
          type: "github",
          isShared: true,
          allowSignIn: true,
          allowConnectedAccounts: false,
        },
      }),
    );
    const providers = ((await getConfig()).auth?.oauth as { providers: Record<string, unknown> }).providers;
    expect(providers.github).toEqual({
      type: "github",
      isShared: true,
      allowSignIn: true,
      allowConnectedAccounts: false,
    });
    expect(providers.google).toEqual({
      type: "google",
      isShared: false,
      clientId: "id",
      clientSecret: "secret",
      allowSignIn: true,
      allowConnectedAccounts: true,
    });
    const project = await expectJson<{ config: { oauth_providers: unknown[] } }>(
      await api(provider, "/internal/projects/current", { headers: admin() }),
    );
    expect(project.config.oauth_providers).toEqual([
      { provider_config_id: "github", id: "github", type: "shared" },
      { provider_config_id: "google", id: "google", type: "standard", client_id: "id", client_secret: "secret" },
    ]);
    // A whole object replaces the provider: its client fields go.
    await expectJson(
      await patch({
        "auth.oauth.providers.google": {
          type: "google",
          isShared: true,
          allowSignIn: false,
          allowConnectedAccounts: true,
        },
      }),
    );
    expect(((await getConfig()).auth?.oauth as { providers: Record<string, unknown> }).providers.google).toEqual({
      type: "google",
      isShared: true,
      allowSignIn: false,
      allowConnectedAccounts: true,
    });
    await expectJson(await patch({ "auth.oauth.providers.github": null }));
    expect(((await getConfig()).auth?.oauth as { providers: Record<string, unknown> }).providers).not.toHaveProperty(
      "github",
    );
    const bad = await patch({ "auth.oauth.providers.x1": { type: "invalid-provider" } });
    expect(await text(bad)).toEqual([
      400,
      "auth.oauth.providers.x1.type must be one of the following values: google, github, microsoft, spotify, facebook, discord, gitlab, bitbucket, linkedin, apple, x, twitch",
    ]);
  });

  it("makes a trusted domain only from an object; dotted keys change an existing one and are ignored for a missing one", async () => {
    await expectJson(await patch({ "domains.trustedDomains": null }));
    await expectJson(
      await patch({
        domains: { trustedDomains: { "domain-1": { baseUrl: "https://example.com", handlerPath: "/auth/handler" } } },
      }),
    );
    await expectJson(
      await patch({
        "domains.trustedDomains.two.baseUrl": "https://app.example.com",
        "domains.trustedDomains.two.handlerPath": "/handler",
      }),
    );
    expect((await getConfig()).domains!.trustedDomains).toEqual({
      "domain-1": { baseUrl: "https://example.com", handlerPath: "/auth/handler" },
    });
    await expectJson(
      await patch({ "domains.trustedDomains.three": { baseUrl: "https://app.example.com", handlerPath: "/handler" } }),
    );
    await expectJson(await patch({ "domains.trustedDomains.domain-1.baseUrl": "https://updated.example.com" }));
    expect((await getConfig()).domains!.trustedDomains).toEqual({
      "domain-1": { baseUrl: "https://updated.example.com", handlerPath: "/auth/handler" },
      three: { baseUrl: "https://app.example.com", handlerPath: "/handler" },
    });
    const project = await expectJson<{ config: { domains: unknown[] } }>(
      await api(provider, "/internal/projects/current", { headers: admin() }),
    );
    expect(project.config.domains).toEqual([
      { domain: "https://app.example.com", handler_path: "/handler" },
      { domain: "https://updated.example.com", handler_path: "/auth/handler" },
    ]);
  });

  it("works the layered settings out again when a level is replaced or a key reset, so the levels below show", async () => {
    const put = (level: string, json: Record<string, unknown>) =>
      api(provider, `/internal/config/override/${level}`, {
        method: "PUT",
        headers: admin(),
        json: { config_string: JSON.stringify(json), ...(level === "branch" ? { source: { type: "unlinked" } } : {}) },
      });
    const reset = (level: string, keys: string[]) =>
      api(provider, `/internal/config/override/${level}/reset-keys`, {
        method: "POST",
        headers: admin(),
        json: { keys },
      });
    const initial = await getConfig();
    const before = initial.teams as Record<string, unknown>;
    const deletionBefore = (initial.users as Record<string, unknown>).allowClientUserDeletion;
    await expectJson(
      await put("branch", {
        "teams.allowClientTeamCreation": !before.allowClientTeamCreation,
        "users.allowClientUserDeletion": !deletionBefore,
      }),
    );
    await expectJson(
      await patch({
        "teams.allowClientTeamCreation": before.allowClientTeamCreation,
        "auth.oauth.providers.discord": { type: "discord", isShared: false, clientId: "c", clientSecret: "s" },
      }),
    );
    expect(((await getConfig()).teams as Record<string, unknown>).allowClientTeamCreation).toBe(
      before.allowClientTeamCreation,
    );
    // The environment's key reset: the branch's value shows; the provider reset: it is gone.
    await expectJson(await reset("environment", ["teams.allowClientTeamCreation", "auth.oauth.providers.discord"]));
    const afterReset = await getConfig();
    expect((afterReset.teams as Record<string, unknown>).allowClientTeamCreation).toBe(!before.allowClientTeamCreation);
    expect((afterReset.auth?.oauth as { providers: Record<string, unknown> }).providers).not.toHaveProperty("discord");
    // A new branch config replaces the old one: its keys go back to the base.
    await expectJson(await put("branch", { "auth.passkey.allowSignIn": true }));
    const afterPush = await getConfig();
    expect((afterPush.teams as Record<string, unknown>).allowClientTeamCreation).toBe(before.allowClientTeamCreation);
    expect((afterPush.users as Record<string, unknown>).allowClientUserDeletion).toBe(deletionBefore);
    expect((afterPush.auth?.passkey as Record<string, unknown>).allowSignIn).toBe(true);
  });

  it("keeps the admin's project update over the levels when the config is worked out again", async () => {
    await expectJson(await patch({ "teams.allowClientTeamCreation": true }));
    await expectJson(
      await api(provider, "/internal/projects/current", {
        method: "PATCH",
        headers: admin(),
        json: { config: { client_team_creation_enabled: false } },
      }),
    );
    expect(((await getConfig()).teams as Record<string, unknown>).allowClientTeamCreation).toBe(false);
    await expectJson(await patch({ "auth.passkey.allowSignIn": true }, "branch"));
    expect(((await getConfig()).teams as Record<string, unknown>).allowClientTeamCreation).toBe(false);
  });

  it("refuses a dot inside a nested key", async () => {
    expect(await text(await patch({ payments: { "items.gems": {} } }))).toEqual([
      400,
      "Key items.gems contains a dot, which is not allowed in config override.",
    ]);
  });
});
