import { describe, expect, it } from "vitest";
import {
  leafChanges,
  overrideOf,
  plan,
  projectChanges,
  projectPatchOf,
  setPath,
  type JsonObject,
  type ProjectFields,
} from "./model.ts";

/** The settings editor's diff and the requests it turns into (what the dashboard sends is checked in the browser test). */
const base: JsonObject = {
  auth: { allowSignUp: true, oauth: { providers: { github: { type: "github", isShared: true, allowSignIn: true } } } },
  domains: {
    allowLocalhost: true,
    trustedDomains: { d1: { baseUrl: "https://a.example.com", handlerPath: "/handler" } },
  },
  emails: { server: { isShared: true, provider: "smtp" } },
};

describe("the settings model", () => {
  it("sets a dotted path without touching the original", () => {
    const next = setPath(base, "auth.allowSignUp", false);
    expect(next).toMatchObject({ auth: { allowSignUp: false } });
    expect(base).toMatchObject({ auth: { allowSignUp: true } });
    expect(setPath(base, "domains.trustedDomains.d1", undefined)).toMatchObject({ domains: { trustedDomains: {} } });
  });

  it("writes single settings as leaves and map entries whole, a removed entry as null", () => {
    let draft = setPath(base, "auth.allowSignUp", false);
    draft = setPath(draft, "domains.trustedDomains.d2", { baseUrl: "https://b.example.com", handlerPath: "/auth" });
    draft = setPath(draft, "domains.trustedDomains.d1", undefined);
    draft = setPath(draft, "auth.oauth.providers.github.isShared", false);
    draft = setPath(draft, "auth.oauth.providers.github.clientId", "cid");
    draft = setPath(draft, "emails.server", {
      isShared: false,
      provider: "smtp",
      host: "smtp.example.com",
      port: 2525,
    });
    expect(overrideOf(base, draft)).toEqual({
      "auth.allowSignUp": false,
      "auth.oauth.providers.github": { type: "github", isShared: false, allowSignIn: true, clientId: "cid" },
      "domains.trustedDomains.d1": null,
      "domains.trustedDomains.d2": { baseUrl: "https://b.example.com", handlerPath: "/auth" },
      "emails.server.isShared": false,
      "emails.server.host": "smtp.example.com",
      "emails.server.port": 2525,
    });
    expect(leafChanges(base, draft).map((c) => c.key)).toEqual([
      "auth.allowSignUp",
      "auth.oauth.providers.github.isShared",
      "auth.oauth.providers.github.clientId",
      "domains.trustedDomains.d1.baseUrl",
      "domains.trustedDomains.d1.handlerPath",
      "domains.trustedDomains.d2.baseUrl",
      "domains.trustedDomains.d2.handlerPath",
      "emails.server.isShared",
      "emails.server.host",
      "emails.server.port",
    ]);
    expect(overrideOf(base, base)).toEqual({});
  });

  it("patches the project for production mode, the theme and default permissions, ordered so the service accepts it", () => {
    const fields: ProjectFields = {
      is_production_mode: false,
      email_theme: "light",
      team_creator_default_permissions: ["team_admin"],
      team_member_default_permissions: [],
      user_default_permissions: [],
    };
    const after: ProjectFields = {
      ...fields,
      is_production_mode: true,
      email_theme: "dark",
      user_default_permissions: ["read"],
    };
    const patch = projectPatchOf(fields, after);
    expect(patch).toEqual({
      is_production_mode: true,
      config: { email_theme: "dark", user_default_permissions: [{ id: "read" }] },
    });
    expect(projectChanges(fields, after).map((c) => c.key)).toEqual([
      "is_production_mode",
      "config.email_theme",
      "config.user_default_permissions.read",
    ]);
    expect(projectPatchOf(fields, { ...fields, team_creator_default_permissions: ["team_admin"] })).toBeNull();
    const override = { "domains.allowLocalhost": false };
    // On: fix the domains first. Off: leave production mode first.
    expect(plan(override, patch).map((r) => r.path)).toEqual([
      "/internal/config/override/environment",
      "/internal/projects/current",
    ]);
    expect(plan(override, { is_production_mode: false }).map((r) => r.path)).toEqual([
      "/internal/projects/current",
      "/internal/config/override/environment",
    ]);
    expect(plan(override, null)[0]!.body).toEqual({ config_override_string: JSON.stringify(override) });
    expect(plan({}, null)).toEqual([]);
  });
});
