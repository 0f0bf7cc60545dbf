import type { AdminProjectJson, ClientProjectJson } from "@authsim/sdk/contract";
import type { EmailConfigRecord } from "../store/admin-records.ts";
import type { ProjectRecord } from "../store/records.ts";

export function clientProjectView(project: ProjectRecord): ClientProjectJson {
  const c = project.config;
  return {
    id: project.id,
    display_name: project.displayName,
    config: {
      sign_up_enabled: c.sign_up_enabled,
      credential_enabled: c.credential_enabled,
      magic_link_enabled: c.magic_link_enabled,
      passkey_enabled: c.passkey_enabled,
      client_team_creation_enabled: c.client_team_creation_enabled,
      client_user_deletion_enabled: c.client_user_deletion_enabled,
      allow_user_api_keys: c.allow_user_api_keys,
      allow_team_api_keys: c.allow_team_api_keys,
      enabled_oauth_providers: providersSorted(c.oauth_providers ?? []).map((p) => ({ id: p.id })),
      // Sorted by the domain, as upstream lists them.
      domains: c.domains
        .map((d) => ({ domain: d.domain, handler_path: d.handler_path }))
        .sort((a, b) => compare(a.domain, b.domain)),
    },
  };
}

export function adminProjectView(project: ProjectRecord): AdminProjectJson {
  const c = project.config;
  const client = clientProjectView(project);
  return {
    id: project.id,
    display_name: project.displayName,
    description: project.description,
    logo_url: project.logoUrl ?? null,
    logo_full_url: project.logoFullUrl ?? null,
    logo_dark_mode_url: project.logoDarkModeUrl ?? null,
    logo_full_dark_mode_url: project.logoFullDarkModeUrl ?? null,
    onboarding_status: project.onboardingStatus ?? "completed",
    created_at_millis: project.createdAtMillis,
    is_production_mode: project.isProductionMode,
    owner_team_id: project.ownerTeamId,
    config: {
      ...client.config,
      allow_localhost: c.allow_localhost,
      // provider_config_id names the provider's entry in the config; authsim keys it by the provider id (protocol.md §5.9).
      oauth_providers: providersSorted(c.oauth_providers ?? []).map((p) => ({ provider_config_id: p.id, ...p })),
      email_config: emailConfigView(c.email_config),
      email_theme: c.email_theme,
      create_team_on_sign_up: c.create_team_on_sign_up,
      // Sorted by id, as upstream lists them.
      team_creator_default_permissions: idsSorted(c.team_creator_default_permissions),
      team_member_default_permissions: idsSorted(c.team_member_default_permissions),
      user_default_permissions: idsSorted(c.user_default_permissions),
      oauth_account_merge_strategy: c.oauth_account_merge_strategy,
    },
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function idsSorted(list: readonly { id: string }[]): { id: string }[] {
  return list.map((p) => ({ id: p.id })).sort((a, b) => compare(a.id, b.id));
}

/** OAuth providers sorted by provider id, as upstream lists them (whatever order the config gave them). */
function providersSorted<P extends { id: string }>(list: readonly P[]): P[] {
  return [...list].sort((a, b) => compare(a.id, b.id));
}

/** The email server in the admin view: a managed one shows as the standard server it sends through (its fields). */
function emailConfigView(email: EmailConfigRecord | undefined): AdminProjectJson["config"]["email_config"] {
  if (!email || email.type === "shared") return { type: "shared" };
  const { host, port, username, password, sender_name, sender_email } = email;
  return { type: "standard", host, port, username, password, sender_name, sender_email };
}
