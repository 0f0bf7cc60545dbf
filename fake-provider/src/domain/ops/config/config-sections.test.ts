import { describe, expect, it } from "vitest";
import { admin, api, expectJson } from "../../../test-support/api.ts";
import { useConfigProvider } from "../../../test-support/admin.ts";

/**
 * The config's sections the emulator keeps in its tables (OAuth providers, trusted domains, payments under their older
 * names) as overrides write them, and the layers worked out again when one changes (protocol.md §6.5).
 */

const { provider, patch, getConfig } = useConfigProvider();
const text = async (response: Response) => [response.status, await response.text()];

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
      await api(provider(), "/internal/projects/current", { headers: admin() }),
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
      await api(provider(), "/internal/projects/current", { headers: admin() }),
    );
    expect(project.config.domains).toEqual([
      { domain: "https://app.example.com", handler_path: "/handler" },
      { domain: "https://updated.example.com", handler_path: "/auth/handler" },
    ]);
  });

  it("works the layered settings out again when a level is replaced or a key reset, so the levels below show", async () => {
    const put = (level: string, json: Record<string, unknown>) =>
      api(provider(), `/internal/config/override/${level}`, {
        method: "PUT",
        headers: admin(),
        json: { config_string: JSON.stringify(json), ...(level === "branch" ? { source: { type: "unlinked" } } : {}) },
      });
    const reset = (level: string, keys: string[]) =>
      api(provider(), `/internal/config/override/${level}/reset-keys`, {
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
      await api(provider(), "/internal/projects/current", {
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
