import type { ConfigLevel } from "@authsim/sdk/contract";
import { knownError, StatusError } from "../http/known-error.ts";
import type { ProjectConfigRecord, ProjectRecord } from "../store/records.ts";
import type { OpContext } from "./context.ts";
import { listTemplates, listThemes } from "./email-content.ts";
import { assertProductionReady } from "./project-admin.ts";
import { defineOwn, prototypeSegment, setPath } from "../safety/safe-keys.ts";

/**
 * The config system (protocol.md §6.5; spec §7 "/internal/config and /internal/config/override (override sent as a JSON
 * string)"). GET /internal/config renders the project's settings in upstream's nested shape; an override is a JSON
 * object of dotted keys (or nested objects) written at a level. Keys that mirror a setting of the admin view change that
 * setting (so auth endpoints enforce them at once); keys of other sections are kept and rendered back as given. The
 * emulator has one branch and one environment, so every level writes the same project.
 */

type Flag = { [K in keyof ProjectConfigRecord]: ProjectConfigRecord[K] extends boolean ? K : never }[keyof ProjectConfigRecord];

/** Dotted config keys that are settings of the admin view, and the record field each one is. */
const booleanKeys: Record<string, Flag> = {
  "auth.allowSignUp": "sign_up_enabled",
  "auth.password.allowSignIn": "credential_enabled",
  "auth.otp.allowSignIn": "magic_link_enabled",
  "auth.passkey.allowSignIn": "passkey_enabled",
  "teams.createPersonalTeamOnSignUp": "create_team_on_sign_up",
  "teams.allowClientTeamCreation": "client_team_creation_enabled",
  "users.allowClientUserDeletion": "client_user_deletion_enabled",
  "apiKeys.enabled.user": "allow_user_api_keys",
  "apiKeys.enabled.team": "allow_team_api_keys",
  "domains.allowLocalhost": "allow_localhost",
  "project.requirePublishableClientKey": "require_publishable_client_key",
};
const mergeStrategies = ["link_method", "raise_error", "allow_duplicates"] as const;

/** Sections the emulator derives from the project's settings: keys there are writable only if listed above. */
const derivedSections = ["auth", "teams", "users", "apiKeys", "domains", "project", "emails", "rbac", "payments", "dataVault"];

const isSettingKey = (path: string) => Object.hasOwn(booleanKeys, path);

/** `{a: {b: 1}}` and `{"a.b": 1}` are the same override. A key naming a prototype is refused (safety/safe-keys.ts). */
function flatten(value: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const bad = prototypeSegment(path);
    if (bad !== null) throw new StatusError(400, `Invalid config override: ${path} is not a config key ("${bad}" is reserved).`);
    if (typeof v === "object" && v !== null && !Array.isArray(v) && !isSettingKey(path)) {
      for (const [inner, innerValue] of Object.entries(flatten(v as Record<string, unknown>, path))) defineOwn(out, inner, innerValue);
    } else defineOwn(out, path, v);
  }
  return out;
}

export function parseOverride(json: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw knownError("SCHEMA_ERROR", { message: "The config override is not valid JSON." });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw knownError("SCHEMA_ERROR", { message: "The config override must be a JSON object." });
  return flatten(parsed as Record<string, unknown>);
}

/** The project's settings after the override's keys; an unknown key of a derived section is refused. */
function applyOverride(project: ProjectRecord, override: Record<string, unknown>): ProjectRecord {
  const config: ProjectConfigRecord = { ...project.config };
  for (const [key, value] of Object.entries(override)) {
    if (isSettingKey(key)) {
      const field = booleanKeys[key]!;
      if (typeof value !== "boolean") throw new StatusError(400, `Invalid config override: ${key} must be a boolean.`);
      config[field] = value;
    } else if (key === "auth.oauth.accountMergeStrategy") {
      if (!(mergeStrategies as readonly unknown[]).includes(value)) throw new StatusError(400, `Invalid config override: ${key} must be one of ${mergeStrategies.join(", ")}.`);
      config.oauth_account_merge_strategy = value as (typeof mergeStrategies)[number];
    } else if (derivedSections.includes(key.split(".")[0]!)) {
      throw new StatusError(400, `Invalid config override: authsim cannot override ${key}; change it with PATCH /internal/projects/current.`);
    }
  }
  const next = { ...project, config };
  assertProductionReady(next);
  return next;
}

const levelKey = (projectId: string, level: ConfigLevel) => `${projectId}:${level}`;

export function getOverride(ctx: OpContext, projectId: string, level: ConfigLevel): Record<string, unknown> {
  return ctx.tables.configOverrides.get(levelKey(projectId, level))?.override ?? {};
}

/** PATCH (merge into the level) or PUT (replace the level). */
export function writeOverride(ctx: OpContext, project: ProjectRecord, level: ConfigLevel, override: Record<string, unknown>, mode: "merge" | "replace"): void {
  const next = applyOverride(project, override);
  const stored = mode === "merge" ? { ...getOverride(ctx, project.id, level), ...override } : override;
  ctx.tables.configOverrides.set(levelKey(project.id, level), { projectId: project.id, level, override: stored });
  ctx.tables.projects.set(next.id, next);
}

/** GET /internal/config: the whole config, settings first, then what overrides keep of other sections. */
export function renderConfig(ctx: OpContext, project: ProjectRecord): Record<string, unknown> {
  const c = project.config;
  const email = c.email_config ?? { type: "shared" as const };
  const permissionSet = (list: { id: string }[]) => Object.fromEntries(list.map((p) => [p.id, true]));
  const config: Record<string, unknown> = {
    project: { requirePublishableClientKey: c.require_publishable_client_key },
    teams: { createPersonalTeamOnSignUp: c.create_team_on_sign_up, allowClientTeamCreation: c.client_team_creation_enabled },
    users: { allowClientUserDeletion: c.client_user_deletion_enabled },
    apiKeys: { enabled: { team: c.allow_team_api_keys, user: c.allow_user_api_keys } },
    domains: {
      allowLocalhost: c.allow_localhost,
      trustedDomains: Object.fromEntries(c.domains.map((d, i) => [`domain-${i}`, { baseUrl: d.domain, handlerPath: d.handler_path }])),
    },
    auth: {
      allowSignUp: c.sign_up_enabled,
      password: { allowSignIn: c.credential_enabled },
      otp: { allowSignIn: c.magic_link_enabled },
      passkey: { allowSignIn: c.passkey_enabled },
      oauth: {
        accountMergeStrategy: c.oauth_account_merge_strategy,
        providers: Object.fromEntries(
          (c.oauth_providers ?? []).map((p) => [
            p.id,
            { type: p.id, isShared: p.type === "shared", clientId: p.client_id, clientSecret: p.client_secret, facebookConfigId: p.facebook_config_id, microsoftTenantId: p.microsoft_tenant_id, allowSignIn: true, allowConnectedAccounts: true },
          ]),
        ),
      },
    },
    emails: {
      server:
        email.type === "shared"
          ? { isShared: true }
          : { isShared: false, host: email.host, port: email.port, username: email.username, password: email.password, senderName: email.sender_name, senderEmail: email.sender_email },
      selectedThemeId: c.email_theme,
      themes: Object.fromEntries(listThemes(ctx, project.id).map((t) => [t.id, { displayName: t.displayName, tsxSource: t.tsxSource }])),
      templates: Object.fromEntries(listTemplates(ctx, project.id).map((t) => [t.id, { displayName: t.displayName, tsxSource: t.tsxSource, themeId: t.themeId === null ? undefined : t.themeId }])),
    },
    rbac: {
      defaultPermissions: {
        teamCreator: permissionSet(c.team_creator_default_permissions),
        teamMember: permissionSet(c.team_member_default_permissions),
        signUp: permissionSet(c.user_default_permissions),
      },
    },
  };
  for (const level of ["project", "branch", "environment"] as const) {
    for (const [key, value] of Object.entries(getOverride(ctx, project.id, level))) {
      // A prototype path can only come from a hand-made snapshot (writes refuse it): skipped, never written.
      if (!derivedSections.includes(key.split(".")[0]!) && prototypeSegment(key) === null) setPath(config, key, value);
    }
  }
  return config;
}
