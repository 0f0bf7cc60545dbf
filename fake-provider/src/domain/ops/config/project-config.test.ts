import { describe, expect, it } from "vitest";
import { DEV, admin, api, client, expectJson, expectKnownError, server } from "../../../test-support/api.ts";
import { updatedProject, useConfigProvider } from "../../../test-support/admin.ts";

/** /internal/config and its overrides, sent as JSON strings (spec §7; protocol.md §6.5). */

const { provider, patch: patchOverride, getConfig } = useConfigProvider();

describe("the config override endpoints with a server key", () => {
  it("read and write the branch level only; another level is the real plain 403, and nothing is written", async () => {
    const at = (level: string, init: { method?: string; json?: unknown } = {}) =>
      api(provider(), `/internal/config/override/${level}`, { headers: server(), ...init });
    await expectJson(
      await at("branch", {
        method: "PATCH",
        json: { config_override_string: JSON.stringify({ "onboarding.requireEmailVerification": true }) },
      }),
    );
    const branch = await expectJson<{ config_string: string }>(await at("branch"));
    expect(JSON.parse(branch.config_string)).toMatchObject({ "onboarding.requireEmailVerification": true });
    await expectJson(
      await at("branch", {
        method: "PUT",
        json: { config_string: JSON.stringify({}), source: { type: "unlinked" } },
      }),
    );
    const before = await getConfig();
    for (const level of ["environment", "project"]) {
      for (const init of [
        {},
        {
          method: "PATCH",
          json: { config_override_string: JSON.stringify({ "teams.allowClientTeamCreation": true }) },
        },
        { method: "PUT", json: { config_string: JSON.stringify({ "teams.allowClientTeamCreation": true }) } },
      ]) {
        const refused = await at(level, init);
        expect([refused.status, await refused.text()]).toEqual([
          403,
          "Server access can only manage branch config overrides.",
        ]);
      }
    }
    expect(await getConfig()).toEqual(before);
    // Resetting keys stays admin only.
    await expectKnownError(
      await api(provider(), "/internal/config/override/branch/reset-keys", {
        headers: server(),
        json: { keys: ["x"] },
      }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });
});

describe("the config endpoints", () => {
  it("renders the project's settings in the nested config shape", async () => {
    await updatedProject(provider(), {
      config: { domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] },
    });
    const config = await getConfig();
    expect(config.auth).toMatchObject({
      allowSignUp: true,
      password: { allowSignIn: true },
      otp: { allowSignIn: DEV.config.magic_link_enabled },
    });
    expect(config.domains).toEqual({
      allowLocalhost: true,
      trustedDomains: { "domain-0": { baseUrl: "https://app.example.com", handlerPath: "/handler" } },
    });
    expect(config.project).toEqual({ requirePublishableClientKey: false });
    expect(config.emails).toMatchObject({
      server: { isShared: true },
      selectedThemeId: "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac",
    });
    expect(Object.keys(config.emails!.themes as object).sort()).toEqual([
      "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac",
      "a0172b5d-cff0-463b-83bb-85124697373a",
      "c7e2d94f-8a1b-4e6d-b3f5-9d0a2e7c1b8f",
    ]);
    expect((config.rbac as { defaultPermissions: unknown }).defaultPermissions).toEqual({
      teamCreator: { team_admin: true },
      teamMember: { team_member: true },
      signUp: {},
    });
  });

  it("an override of a setting changes what the auth endpoints enforce (dotted or nested keys)", async () => {
    await expectJson(await patchOverride({ "auth.allowSignUp": false }));
    await expectKnownError(
      await api(provider(), "/auth/password/sign-up", {
        headers: client(),
        json: { email: "a@example.com", password: "password-123" },
      }),
      "SIGN_UP_NOT_ENABLED",
      400,
    );
    await expectJson(await patchOverride({ auth: { allowSignUp: true, password: { allowSignIn: false } } }));
    await expectKnownError(
      await api(provider(), "/auth/password/sign-up", {
        headers: client(),
        json: { email: "a@example.com", password: "password-123" },
      }),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
      400,
    );
    const stored = await expectJson<{ config_string: string }>(
      await api(provider(), "/internal/config/override/environment", { headers: admin() }),
    );
    // Kept as written: the nested `auth` replaced the dotted key under it (upstream's override()).
    expect(JSON.parse(stored.config_string)).toEqual({ auth: { allowSignUp: true, password: { allowSignIn: false } } });
  });

  it("requirePublishableClientKey at the project level makes keyless client calls fail", async () => {
    await expectJson(
      await api(provider(), "/projects/current", { headers: { accessType: "client", projectId: DEV.id } }),
    );
    await expectJson(await patchOverride({ "project.requirePublishableClientKey": true }, "project"));
    await expectKnownError(
      await api(provider(), "/projects/current", { headers: { accessType: "client", projectId: DEV.id } }),
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
      401,
    );
  });

  it("keeps keys of other sections and renders them back; PUT replaces a level", async () => {
    await expectJson(
      await patchOverride({ "apps.installed.payments.enabled": true, "apps.installed.my-app.enabled": true }, "branch"),
    );
    const installed = (await getConfig()).apps as { installed: Record<string, { enabled: boolean }> };
    expect(installed.installed.payments).toEqual({ enabled: true });
    // The real service's app order, with an id it does not know after its own.
    expect(Object.keys(installed.installed).slice(-2)).toEqual(["analytics", "my-app"]);
    await expectJson(
      await api(provider(), "/internal/config/override/branch", {
        method: "PUT",
        headers: admin(),
        json: {
          config_string: JSON.stringify({ "onboarding.requireEmailVerification": true }),
          source: { type: "unlinked" },
        },
      }),
    );
    const config = await getConfig();
    expect((config.apps as typeof installed).installed.payments).toEqual({ enabled: false });
    expect(config.onboarding).toEqual({ requireEmailVerification: true });
  });

  it("renders every section over the real service's defaults, as the real dashboard reads them", async () => {
    const config = await getConfig();
    expect(Object.keys(config).sort()).toEqual([
      "analytics",
      "apiKeys",
      "apps",
      "auth",
      "customDashboards",
      "dataVault",
      "dbSync",
      "domains",
      "emails",
      "onboarding",
      "payments",
      "project",
      "rbac",
      "sourceOfTruth",
      "teams",
      "users",
    ]);
    const apps = config.apps as { installed: Record<string, { enabled: boolean }> };
    // A project the service creates has the authentication and emails apps installed, and every other app off.
    expect(
      Object.entries(apps.installed)
        .filter(([, app]) => app.enabled)
        .map(([id]) => id),
    ).toEqual(["authentication", "emails"]);
    expect(Object.keys(apps.installed)).toHaveLength(18);
    expect(config.analytics).toEqual({ queryFolders: {} });
    expect(config.sourceOfTruth).toEqual({ type: "hosted" });
    expect(config.onboarding).toEqual({ requireEmailVerification: false });
    expect((config.rbac as { permissions: unknown }).permissions).toEqual({
      team_admin: {
        containedPermissionIds: {
          $delete_team: true,
          $invite_members: true,
          $manage_api_keys: true,
          $read_members: true,
          $remove_members: true,
          $update_team: true,
        },
        description: "Default permission for team admins",
        scope: "team",
      },
      team_member: {
        containedPermissionIds: { $invite_members: true, $read_members: true },
        description: "Default permission for team members",
        scope: "team",
      },
    });
    // An entry of a record section gets each field's default; one written as null is no entry's fields.
    await expectJson(
      await patchOverride(
        {
          "analytics.queryFolders.f1": { queries: { q1: { sqlQuery: "SELECT 1" } } },
          "payments.items.authsim-test-item": { customerType: "team" },
        },
        "environment",
      ),
    );
    const after = await getConfig();
    expect(after.analytics).toEqual({
      queryFolders: {
        f1: {
          displayName: "Unnamed Folder",
          sortOrder: 0,
          queries: { q1: { displayName: "Unnamed Query", sqlQuery: "SELECT 1" } },
        },
      },
    });
    expect((after.payments as { items: Record<string, unknown> }).items["authsim-test-item"]).toEqual({
      displayName: "authsim-test-item",
      customerType: "team",
    });
  });

  it("the level-less PATCH writes the environment level", async () => {
    await expectJson(
      await api(provider(), "/internal/config/override", {
        method: "PATCH",
        headers: admin(),
        json: { config_override_string: JSON.stringify({ "teams.allowClientTeamCreation": false }) },
      }),
    );
    const project = await expectJson<{ config: { client_team_creation_enabled: boolean } }>(
      await api(provider(), "/internal/projects/current", { headers: admin() }),
    );
    expect(project.config.client_team_creation_enabled).toBe(false);
  });

  it("refuses bad JSON, wrong types, derived keys it cannot map, and an unknown level", async () => {
    const badJson = await api(provider(), "/internal/config/override/environment", {
      method: "PATCH",
      headers: admin(),
      json: { config_override_string: "{nope" },
    });
    expect([badJson.status, await badJson.text()]).toEqual([400, "Invalid config JSON"]);
    const array = await patchOverride([1, 2]);
    expect([array.status, await array.text()]).toEqual([400, "Config override must be a non-null object."]);
    const wrongType = await patchOverride({ "auth.allowSignUp": "yes" });
    expect(wrongType.status).toBe(400);
    expect(await wrongType.text()).toContain("auth.allowSignUp must be a `boolean` type");
    const derived = await patchOverride({ "emails.themes.a.displayName": "x" });
    expect(derived.status).toBe(400);
    expect(await derived.text()).toContain("PATCH /internal/projects/current");
    await expectKnownError(await patchOverride({}, "galaxy"), "SCHEMA_ERROR", 400);
  });

  it("writes email templates through emails.templates keys, and renders the project's own only with its own email server", async () => {
    const id = "0b9a4a7e-3c1d-4f5e-9a8b-7c6d5e4f3a2b";
    const template = {
      displayName: "Welcome back",
      tsxSource: "export const EmailTemplate = () => null;",
      themeId: false,
    };
    expect(
      (
        await patchOverride({
          "emails.server": {
            isShared: false,
            provider: "smtp",
            host: "smtp.example.com",
            port: 587,
            username: "u",
            password: "p",
            senderName: "S",
            senderEmail: "s@example.com",
          },
        })
      ).status,
    ).toBe(200);
    expect((await patchOverride({ [`emails.templates.${id}`]: template })).status).toBe(200);
    expect((await getConfig()).emails!.templates).toMatchObject({ [id]: template });
    const listed = await expectJson<{ templates: { id: string; display_name: string }[] }>(
      await api(provider(), "/internal/email-templates", { headers: admin() }),
    );
    expect(listed.templates.find((t) => t.id === id)?.display_name).toBe("Welcome back");
    expect((await patchOverride({ "emails.server": { isShared: true, provider: "smtp" } })).status).toBe(200);
    expect((await getConfig()).emails!.templates).not.toHaveProperty(id);
    expect(
      (
        await patchOverride({
          "emails.server": {
            isShared: false,
            provider: "smtp",
            host: "smtp.example.com",
            port: 587,
            username: "u",
            password: "p",
            senderName: "S",
            senderEmail: "s@example.com",
          },
        })
      ).status,
    ).toBe(200);
    expect((await getConfig()).emails!.templates).toMatchObject({ [id]: template });
    expect((await patchOverride({ [`emails.templates.${id}`]: null })).status).toBe(200);
    expect((await getConfig()).emails!.templates).not.toHaveProperty(id);
  });

  it("lets an override allow localhost in production, as upstream's backend does (only the admin kit flags it)", async () => {
    await updatedProject(provider(), { is_production_mode: true, config: { allow_localhost: false } });
    expect((await patchOverride({ "domains.allowLocalhost": true })).status).toBe(200);
    const project = await expectJson<{ config: { allow_localhost: boolean } }>(
      await api(provider(), "/internal/projects/current", { headers: admin() }),
    );
    expect(project.config.allow_localhost).toBe(true);
  });
});

describe("an override as stored", () => {
  const stored = async (level: string) =>
    JSON.parse(
      (
        await expectJson<{ config_string: string }>(
          await api(provider(), `/internal/config/override/${level}`, { headers: admin() }),
        )
      ).config_string,
    ) as Record<string, unknown>;
  const folder = { displayName: "Environment Folder", sortOrder: 0, queries: {} };

  it("keeps each key as written, its object whole (upstream's analytics-config e2e test), and renders as before", async () => {
    await expectJson(await patchOverride({ "analytics.queryFolders.env-folder": folder }));
    expect(await stored("environment")).toEqual({ "analytics.queryFolders.env-folder": folder });
    expect(await stored("branch")).toEqual({});
    expect((await getConfig()).analytics).toEqual({ queryFolders: { "env-folder": folder } });
  });

  it("a PATCH replaces the keys at and under each key it names and keeps the rest as written; reset-keys reaches into objects", async () => {
    await expectJson(
      await patchOverride({
        "analytics.queryFolders.a": { ...folder, queries: { q: { displayName: "Q", sqlQuery: "SELECT 1" } } },
        "analytics.queryFolders.b": folder,
      }),
    );
    await expectJson(
      await patchOverride({ "analytics.queryFolders.a.displayName": "A", "analytics.queryFolders.b": null }),
    );
    expect(await stored("environment")).toEqual({
      "analytics.queryFolders.a": { ...folder, queries: { q: { displayName: "Q", sqlQuery: "SELECT 1" } } },
      "analytics.queryFolders.a.displayName": "A",
      "analytics.queryFolders.b": null,
    });
    const queryFolders = () => getConfig().then((c) => c.analytics!.queryFolders) as Promise<Record<string, unknown>>;
    expect(await queryFolders()).toEqual({
      a: { ...folder, displayName: "A", queries: { q: { displayName: "Q", sqlQuery: "SELECT 1" } } },
    });
    await expectJson(
      await api(provider(), "/internal/config/override/environment/reset-keys", {
        headers: admin(),
        json: { keys: ["analytics.queryFolders.a.queries.q", "analytics.queryFolders.b"] },
      }),
    );
    // The emptied `queries` goes with its only entry, as upstream's removeKeysFromConfig drops an emptied object.
    expect(await stored("environment")).toEqual({
      "analytics.queryFolders.a": { displayName: "Environment Folder", sortOrder: 0 },
      "analytics.queryFolders.a.displayName": "A",
    });
    expect(await queryFolders()).toEqual({ a: { ...folder, displayName: "A" } });
  });
});
