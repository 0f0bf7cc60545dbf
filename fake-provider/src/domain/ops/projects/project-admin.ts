import {
  INTERNAL_PROJECT_ID,
  oauthProviderIds,
  type AdminProjectConfigUpdate,
  type AdminProjectUpdate,
} from "@authsim/sdk/contract";
import { parseTrustedDomain } from "@authsim/sdk/urls";
import { knownError } from "../../errors/known-error.ts";
import type { EmailConfigRecord, OAuthProviderConfigRecord } from "../../store/admin-records.ts";
import type { ProjectConfigRecord, ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { findTheme } from "../emails/email-content.ts";
import { requireDefinition } from "../teams/permissions.ts";
import { settleLegacyUpdate } from "../config/project-config.ts";
import { refusal } from "../../errors/refusals.ts";
import { storedImageUrl } from "../storage/uploaded-images.ts";

/**
 * The admin's project settings (spec §3 "Project (admin view)", §5; protocol.md §5.9): PATCH and DELETE of
 * /internal/projects/current, shared with project creation (domain/ops/projects/owned-projects.ts). Every change is validated as a
 * whole, so a refused update leaves the project as it was.
 */

/** Upstream offers its own OAuth apps ("shared keys") for these only (protocol.md §5.9). */
export const sharedOAuthProviderIds: readonly string[] = ["google", "github", "microsoft", "spotify"];

const schemaProblem = (message: string) => knownError("SCHEMA_ERROR", { message });

function checkDomains(domains: readonly { domain: string; handler_path: string }[]): void {
  for (const { domain, handler_path } of domains) {
    // Spec §5: a trusted domain is a URL whose host follows the domain pattern (wildcards allowed).
    if (!parseTrustedDomain(domain))
      throw schemaProblem(
        `Trusted domain "${domain}" is not a valid URL with a host of letters, digits, dots, hyphens and * wildcards (spec §5).`,
      );
    if (!handler_path.startsWith("/"))
      throw schemaProblem(`The handler path "${handler_path}" of trusted domain "${domain}" must start with "/".`);
  }
}

function oauthProvidersFrom(
  providers: AdminProjectConfigUpdate["oauth_providers"] & object,
): OAuthProviderConfigRecord[] {
  const seen = new Set<string>();
  return providers.map((p) => {
    if (seen.has(p.id)) throw schemaProblem(`OAuth provider "${p.id}" is listed twice.`);
    seen.add(p.id);
    if (p.type === "shared") {
      if (!sharedOAuthProviderIds.includes(p.id))
        throw knownError("INVALID_SHARED_OAUTH_PROVIDER_ID", { provider_id: p.id });
      return { id: p.id, type: "shared" };
    }
    if (!(oauthProviderIds as readonly string[]).includes(p.id))
      throw knownError("INVALID_STANDARD_OAUTH_PROVIDER_ID", { provider_id: p.id });
    if (!p.client_id || !p.client_secret)
      throw schemaProblem(`The standard OAuth provider "${p.id}" needs client_id and client_secret.`);
    return {
      id: p.id,
      type: "standard",
      client_id: p.client_id,
      client_secret: p.client_secret,
      ...(p.facebook_config_id !== undefined ? { facebook_config_id: p.facebook_config_id } : {}),
      ...(p.microsoft_tenant_id !== undefined ? { microsoft_tenant_id: p.microsoft_tenant_id } : {}),
      ...(p.apple_bundle_ids !== undefined ? { apple_bundle_ids: p.apple_bundle_ids } : {}),
    };
  });
}

function emailConfigFrom(c: NonNullable<AdminProjectConfigUpdate["email_config"]>): EmailConfigRecord {
  if (c.type === "shared") return { type: "shared" };
  const { host, port, username, password, sender_name, sender_email } = c;
  if (
    host === undefined ||
    port === undefined ||
    username === undefined ||
    password === undefined ||
    sender_name === undefined ||
    sender_email === undefined
  ) {
    throw schemaProblem(
      "A standard email config needs host, port, username, password, sender_name and sender_email (spec §3).",
    );
  }
  return { type: "standard", host, port, username, password, sender_name, sender_email };
}

/** The config after an update: every given key replaces the stored value, after its checks. */
export function applyConfigUpdate(
  ctx: OpContext,
  projectId: string,
  config: ProjectConfigRecord,
  u: AdminProjectConfigUpdate,
): ProjectConfigRecord {
  const next: ProjectConfigRecord = { ...config };
  const flags = [
    "sign_up_enabled",
    "credential_enabled",
    "magic_link_enabled",
    "passkey_enabled",
    "client_team_creation_enabled",
    "client_user_deletion_enabled",
    "allow_localhost",
    "allow_user_api_keys",
    "allow_team_api_keys",
    "create_team_on_sign_up",
  ] as const;
  for (const flag of flags) if (u[flag] !== undefined) next[flag] = u[flag];
  if (u.oauth_account_merge_strategy !== undefined) next.oauth_account_merge_strategy = u.oauth_account_merge_strategy;
  if (u.domains !== undefined) {
    checkDomains(u.domains);
    next.domains = u.domains.map((d) => ({ domain: d.domain, handler_path: d.handler_path }));
  }
  if (u.oauth_providers !== undefined) next.oauth_providers = oauthProvidersFrom(u.oauth_providers);
  if (u.email_config !== undefined) next.email_config = emailConfigFrom(u.email_config);
  if (u.email_theme !== undefined) {
    // The real service's plain-text refusal for a theme id the project does not have.
    if (!findTheme(ctx, projectId, u.email_theme)) throw refusal("invalidEmailTheme");
    next.email_theme = u.email_theme;
  }
  // Spec §6 "Defaults": team lists name team-scope definitions, the user list project-scope ones.
  for (const [list, scope] of [
    ["team_creator_default_permissions", "team"],
    ["team_member_default_permissions", "team"],
    ["user_default_permissions", "project"],
  ] as const) {
    const given = u[list];
    if (given === undefined) continue;
    for (const { id } of given) requireDefinition(ctx, projectId, scope, id);
    next[list] = given.map((p) => ({ id: p.id }));
  }
  return next;
}

export function applyProjectUpdate(ctx: OpContext, project: ProjectRecord, body: AdminProjectUpdate): ProjectRecord {
  const next: ProjectRecord = {
    ...project,
    ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
    // Upstream stores a cleared description as "".
    ...(body.description !== undefined ? { description: body.description ?? "" } : {}),
    ...(body.logo_url !== undefined ? { logoUrl: storedImageUrl(ctx, body.logo_url, "project-logos") } : {}),
    ...(body.logo_full_url !== undefined
      ? { logoFullUrl: storedImageUrl(ctx, body.logo_full_url, "project-logos") }
      : {}),
    ...(body.logo_dark_mode_url !== undefined
      ? { logoDarkModeUrl: storedImageUrl(ctx, body.logo_dark_mode_url, "project-logos") }
      : {}),
    ...(body.logo_full_dark_mode_url !== undefined
      ? { logoFullDarkModeUrl: storedImageUrl(ctx, body.logo_full_dark_mode_url, "project-logos") }
      : {}),
    ...(body.is_production_mode !== undefined ? { isProductionMode: body.is_production_mode } : {}),
    ...(body.onboarding_status !== undefined ? { onboardingStatus: body.onboarding_status } : {}),
    config: body.config ? applyConfigUpdate(ctx, project.id, project.config, body.config) : project.config,
  };
  // Production mode is stored whatever the domains say, as upstream's backend does (spec §5's checks are the admin
  // kit's getProductionModeErrors, sdk/src/urls/domains.ts, which the dashboard shows).
  return next;
}

/** PATCH /internal/projects/current. */
export function updateAdminProject(ctx: OpContext, project: ProjectRecord, body: AdminProjectUpdate): ProjectRecord {
  let next = applyProjectUpdate(ctx, project, body);
  // A project with config layers keeps its base in step (domain/ops/config/project-config.ts settleLegacyUpdate).
  if (body.config && project.configBase)
    next = settleLegacyUpdate(
      ctx,
      next,
      applyConfigUpdate(ctx, project.id, project.configBase, body.config),
      body.config,
    );
  ctx.tables.projects.set(next.id, next);
  return next;
}

/**
 * DELETE /internal/projects/current: the project and every row that belongs to it (any table whose records carry its
 * projectId), so its keys, users and sessions stop working at once. The `internal` project cannot be deleted.
 */
export function deleteProject(ctx: OpContext, project: ProjectRecord): void {
  if (project.id === INTERNAL_PROJECT_ID) throw refusal("internalProjectCannotDeleted");
  for (const table of Object.values(ctx.tables)) {
    const rows = table as unknown as { entries(): [string, unknown][]; delete(id: string): unknown };
    for (const [key, row] of rows.entries()) {
      if (typeof row === "object" && row !== null && (row as { projectId?: unknown }).projectId === project.id)
        rows.delete(key);
    }
  }
  ctx.tables.projects.delete(project.id);
}
