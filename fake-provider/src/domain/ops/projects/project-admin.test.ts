import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LOCALHOST_IN_PRODUCTION_MESSAGE, productionModeErrors } from "@authsim/sdk/urls";
import {
  DEV,
  INTERNAL,
  admin,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { SMTP, patchProject, updatedProject } from "../../../test-support/admin.ts";

/** PATCH and DELETE /internal/projects/current (spec §3 "Project (admin view)", §5; protocol.md §5.9). */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

describe("the admin's project update", () => {
  it("changes the whole admin config of spec §3, and the client view follows", async () => {
    const project = await updatedProject(provider, {
      display_name: "Renamed",
      description: "About it",
      logo_url: "https://cdn.example.com/logo.png",
      onboarding_status: "auth_setup",
      config: {
        allow_localhost: false,
        oauth_account_merge_strategy: "raise_error",
        create_team_on_sign_up: true,
        team_creator_default_permissions: [{ id: "team_admin" }, { id: "$invite_members" }],
        team_member_default_permissions: [],
        user_default_permissions: [],
        email_theme: "default-dark",
        domains: [{ domain: "https://*.example.com", handler_path: "/auth/handler" }],
        oauth_providers: [
          { id: "github", type: "shared" },
          { id: "discord", type: "standard", client_id: "cid", client_secret: "csecret" },
          { id: "microsoft", type: "standard", client_id: "m", client_secret: "s", microsoft_tenant_id: "tenant" },
        ],
        email_config: SMTP,
        sign_up_enabled: false,
        allow_user_api_keys: false,
      },
    });
    expect(project).toMatchObject({
      display_name: "Renamed",
      description: "About it",
      logo_url: "https://cdn.example.com/logo.png",
      onboarding_status: "auth_setup",
    });
    expect(project.config).toMatchObject({
      allow_localhost: false,
      oauth_account_merge_strategy: "raise_error",
      create_team_on_sign_up: true,
      team_creator_default_permissions: [{ id: "$invite_members" }, { id: "team_admin" }],
      team_member_default_permissions: [],
      email_theme: "default-dark",
      domains: [{ domain: "https://*.example.com", handler_path: "/auth/handler" }],
      email_config: SMTP,
      sign_up_enabled: false,
      allow_user_api_keys: false,
    });
    // Sorted by provider id, whatever order the update gave them.
    expect(project.config.oauth_providers).toEqual([
      { provider_config_id: "discord", id: "discord", type: "standard", client_id: "cid", client_secret: "csecret" },
      { provider_config_id: "github", id: "github", type: "shared" },
      {
        provider_config_id: "microsoft",
        id: "microsoft",
        type: "standard",
        client_id: "m",
        client_secret: "s",
        microsoft_tenant_id: "tenant",
      },
    ]);
    const view = await expectJson<{ display_name: string; config: Record<string, unknown> }>(
      await api(provider, "/projects/current", { headers: client() }),
    );
    expect(view.display_name).toBe("Renamed");
    expect(view.config).toMatchObject({
      sign_up_enabled: false,
      enabled_oauth_providers: [{ id: "discord" }, { id: "github" }, { id: "microsoft" }],
    });
    // The client view has no admin settings: neither the email server nor whether localhost is trusted.
    expect(view.config).not.toHaveProperty("email_config");
    expect(view.config).not.toHaveProperty("allow_localhost");
  });

  it("leaves what the body does not name", async () => {
    const before = await expectJson<Record<string, unknown>>(
      await api(provider, "/internal/projects/current", { headers: admin() }),
    );
    const after = await updatedProject(provider, { config: {} });
    expect(after).toEqual(before);
  });

  it("is admin only: a server key gets INSUFFICIENT_ACCESS_TYPE (401)", async () => {
    await expectKnownError(
      await patchProject(provider, { display_name: "x" }, server()),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });

  it("refuses unknown keys, bad domains and half an SMTP config with SCHEMA_ERROR, changing nothing", async () => {
    await expectKnownError(await patchProject(provider, { config: { no_such_flag: true } }), "SCHEMA_ERROR", 400);
    // Without http(s) the schema refuses it in upstream's bare words; an http(s) URL with a bad host names the domain.
    for (const domain of ["example.com", "ftp://example.com"]) {
      const body = await expectKnownError(
        await patchProject(provider, { config: { domains: [{ domain, handler_path: "/handler" }] } }),
        "SCHEMA_ERROR",
        400,
      );
      expect(body.details?.message).toContain("URL must start with http:// or https://");
    }
    for (const domain of ["https://.example.com", "https://a..b.com", "https://exa mple.com"]) {
      const body = await expectKnownError(
        await patchProject(provider, { config: { domains: [{ domain, handler_path: "/handler" }] } }),
        "SCHEMA_ERROR",
        400,
      );
      expect(body.details?.message).toContain(domain);
    }
    await expectKnownError(
      await patchProject(provider, {
        config: { domains: [{ domain: "https://ok.example.com", handler_path: "handler" }] },
      }),
      "SCHEMA_ERROR",
      400,
    );
    await expectKnownError(
      await patchProject(provider, { config: { email_config: { type: "standard", host: "smtp.example.com" } } }),
      "SCHEMA_ERROR",
      400,
    );
    const theme = await patchProject(provider, { display_name: "Changed", config: { email_theme: "no-such-theme" } });
    expect([theme.status, await theme.text()]).toEqual([400, "Invalid email theme"]);
    const project = await expectJson<{ display_name: string; config: { domains: unknown[] } }>(
      await api(provider, "/internal/projects/current", { headers: admin() }),
    );
    expect(project.display_name).toBe(DEV.display_name);
    expect(project.config.domains).toEqual([]);
  });

  it("checks the email server as the real service: every SMTP field defined, a host not empty, nothing but the type for the shared one", async () => {
    const missing = await expectKnownError(
      await patchProject(provider, { config: { email_config: { type: "standard" } } }),
      "SCHEMA_ERROR",
      400,
    );
    for (const field of ["host", "port", "username", "password", "sender_name", "sender_email"])
      expect(missing.details?.message).toContain(`body.config.email_config.${field} must be defined`);
    const empty = await expectKnownError(
      await patchProject(provider, { config: { email_config: { ...SMTP, host: "" } } }),
      "SCHEMA_ERROR",
      400,
    );
    expect(empty.details?.message).toContain("body.config.email_config.host must not be empty");
    const extra = await expectKnownError(
      await patchProject(provider, { config: { email_config: { type: "shared", client_id: "x" } } }),
      "SCHEMA_ERROR",
      400,
    );
    expect(extra.details?.message).toContain("body.config.email_config contains unknown properties: client_id");
    expect(
      (await updatedProject(provider, { config: { email_config: { type: "shared" } } })).config.email_config,
    ).toEqual({ type: "shared" });
  });

  it("checks OAuth providers: shared keys only for google, github, microsoft and spotify; standard ones need a client", async () => {
    const shared = await expectKnownError(
      await patchProject(provider, { config: { oauth_providers: [{ id: "discord", type: "shared" }] } }),
      "INVALID_SHARED_OAUTH_PROVIDER_ID",
      400,
    );
    expect(shared.details).toEqual({ provider_id: "discord" });
    const standard = await expectKnownError(
      await patchProject(provider, {
        config: { oauth_providers: [{ id: "myspace", type: "standard", client_id: "a", client_secret: "b" }] },
      }),
      "INVALID_STANDARD_OAUTH_PROVIDER_ID",
      400,
    );
    expect(standard.details).toEqual({ provider_id: "myspace" });
    await expectKnownError(
      await patchProject(provider, {
        config: { oauth_providers: [{ id: "google", type: "standard", client_id: "a" }] },
      }),
      "SCHEMA_ERROR",
      400,
    );
  });

  it("checks default permissions against the definitions and their scope", async () => {
    const missing = await expectKnownError(
      await patchProject(provider, { config: { team_member_default_permissions: [{ id: "nope" }] } }),
      "PERMISSION_NOT_FOUND",
      404,
    );
    expect(missing.details).toMatchObject({ permission_id: "nope" });
    await expectKnownError(
      await patchProject(provider, { config: { user_default_permissions: [{ id: "team_admin" }] } }),
      "WRONG_PERMISSION_SCOPE",
      404,
    );
  });
});

describe("create team on sign-up (spec §3)", () => {
  it('gives a new user a team of their own, selected, with the creator defaults; anonymous users a "Personal Team"', async () => {
    await updatedProject(provider, { config: { create_team_on_sign_up: true } });
    const user = await signUp(provider);
    const me = await expectJson<{ selected_team: { id: string; display_name: string } | null }>(
      await api(provider, "/users/me", { headers: client({ accessToken: user.access_token }) }),
    );
    expect(me.selected_team?.display_name).toBe(`${user.email}'s Team`);
    const perms = await expectJson<{ items: { id: string }[] }>(
      await api(provider, `/team-permissions?team_id=${me.selected_team!.id}&user_id=me&recursive=false`, {
        headers: client({ accessToken: user.access_token }),
      }),
    );
    expect(perms.items.map((p) => p.id)).toContain("team_admin");
    const anonymous = await expectJson<{ access_token: string }>(
      await api(provider, "/auth/anonymous/sign-up", { method: "POST", headers: client() }),
    );
    const anon = await expectJson<{ selected_team: { display_name: string } | null }>(
      await api(provider, "/users/me", {
        headers: client({ accessToken: anonymous.access_token, allowAnonymousUser: "true" }),
      }),
    );
    expect(anon.selected_team?.display_name).toBe("Personal Team");
  });

  it('renames an upgraded anonymous user\'s "Personal Team" after the user, unless it was renamed meanwhile', async () => {
    await updatedProject(provider, { config: { create_team_on_sign_up: true } });
    const teamName = async (token: string) =>
      (
        await expectJson<{ selected_team: { display_name: string } | null }>(
          await api(provider, "/users/me", { headers: client({ accessToken: token, allowAnonymousUser: "true" }) }),
        )
      ).selected_team?.display_name;
    const first = await expectJson<{ access_token: string; user_id: string }>(
      await api(provider, "/auth/anonymous/sign-up", { method: "POST", headers: client() }),
    );
    await expectJson(
      await api(provider, `/users/${first.user_id}`, {
        method: "PATCH",
        headers: server(),
        json: { is_anonymous: false, display_name: "Ada" },
      }),
    );
    expect(await teamName(first.access_token)).toBe("Ada's Team");
    const second = await expectJson<{ access_token: string; user_id: string }>(
      await api(provider, "/auth/anonymous/sign-up", { method: "POST", headers: client() }),
    );
    const me = await expectJson<{ selected_team_id: string }>(
      await api(provider, "/users/me", {
        headers: client({ accessToken: second.access_token, allowAnonymousUser: "true" }),
      }),
    );
    await expectJson(
      await api(provider, `/teams/${me.selected_team_id}`, {
        method: "PATCH",
        headers: server(),
        json: { display_name: "Kept" },
      }),
    );
    await expectJson(
      await api(provider, `/users/${second.user_id}`, {
        method: "PATCH",
        headers: server(),
        json: { is_anonymous: false, display_name: "Bob" },
      }),
    );
    expect(await teamName(second.access_token)).toBe("Kept");
  });

  it("creates no team when the setting is off (the default)", async () => {
    const user = await signUp(provider);
    const me = await expectJson<{ selected_team: unknown }>(
      await api(provider, "/users/me", { headers: client({ accessToken: user.access_token }) }),
    );
    expect(me.selected_team).toBeNull();
  });
});

describe("production mode (spec §5)", () => {
  it("is stored while localhost is allowed, as upstream stores it (the admin kit flags it, not the server)", async () => {
    const project = await updatedProject(provider, { is_production_mode: true });
    expect(project.is_production_mode).toBe(true);
    expect(
      productionModeErrors({ allowLocalhost: project.config.allow_localhost, domains: project.config.domains }).map(
        (e) => e.message,
      ),
    ).toEqual([LOCALHOST_IN_PRODUCTION_MESSAGE]);
  });

  it("keeps plain-HTTP and IP trusted domains in production, and the admin kit's check names each", async () => {
    const domains = ["http://localhost:3000", "https://10.0.0.1", "http://app.example.com"].map((domain) => ({
      domain,
      handler_path: "/handler",
    }));
    const project = await updatedProject(provider, {
      is_production_mode: true,
      config: { allow_localhost: false, domains },
    });
    expect(project.config.domains.map((d) => d.domain).sort()).toEqual(domains.map((d) => d.domain).sort());
    const messages = productionModeErrors({ allowLocalhost: false, domains: project.config.domains }).map(
      (e) => e.message,
    );
    expect(messages.some((m) => m.includes("http://localhost:3000"))).toBe(true);
    expect(messages.some((m) => m.includes("https://10.0.0.1"))).toBe(true);
    expect(messages.some((m) => m.includes("http://app.example.com"))).toBe(true);
  });
});

describe("deleting the project", () => {
  it("removes the project with its keys and users: its keys stop authenticating", async () => {
    const user = await signUp(provider);
    await expectJson(await api(provider, "/internal/projects/current", { method: "DELETE", headers: admin() }));
    await expectKnownError(await api(provider, "/users/me", { headers: client() }), "CURRENT_PROJECT_NOT_FOUND", 400);
    expect([...provider.store.read.users.values()].some((u) => u.id === user.user_id)).toBe(false);
    expect([...provider.store.read.apiKeySets.values()].some((k) => k.projectId === DEV.id)).toBe(false);
  });

  it("refuses to delete the internal project", async () => {
    const response = await api(provider, "/internal/projects/current", {
      method: "DELETE",
      headers: admin({}, INTERNAL),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("The internal project cannot be deleted.");
  });
});

describe("the update's field rules, in upstream's wording", () => {
  it("refuses a trusted domain that is not http(s) with the bare URL message", async () => {
    const response = await patchProject(provider, {
      config: { domains: [{ domain: "ftp://files.example.com", handler_path: "/handler" }] },
    });
    const body = await expectKnownError(response, "SCHEMA_ERROR", 400);
    expect(body.error).toBe(
      "Request validation failed on PATCH /api/v1/internal/projects/current:\n  - URL must start with http:// or https://",
    );
  });

  it("refuses a standard provider's empty or missing client secret by its path", async () => {
    const empty = await patchProject(provider, {
      config: { oauth_providers: [{ id: "google", type: "standard", client_id: "cid", client_secret: "" }] },
    });
    expect((await expectKnownError(empty, "SCHEMA_ERROR", 400)).error).toContain(
      "  - body.config.oauth_providers[0].client_secret must not be empty",
    );
    const missing = await patchProject(provider, {
      config: {
        oauth_providers: [
          { id: "github", type: "shared" },
          { id: "google", type: "standard", client_secret: "s" },
        ],
      },
    });
    expect((await expectKnownError(missing, "SCHEMA_ERROR", 400)).error).toContain(
      "  - body.config.oauth_providers[1].client_id must be defined",
    );
  });

  it("lists trusted domains by URL and providers by id, whatever order they were written in", async () => {
    const domains = ["https://b.example.com", "https://a.example.com"].map((domain) => ({
      domain,
      handler_path: "/handler",
    }));
    const project = await updatedProject(provider, {
      config: {
        domains,
        oauth_providers: [
          { id: "spotify", type: "shared" },
          { id: "google", type: "shared" },
        ],
      },
    });
    expect(project.config.domains.map((d) => d.domain)).toEqual(["https://a.example.com", "https://b.example.com"]);
    expect(project.config.oauth_providers.map((p) => p.id)).toEqual(["google", "spotify"]);
    expect(project.config.enabled_oauth_providers).toEqual([{ id: "google" }, { id: "spotify" }]);
  });
});
