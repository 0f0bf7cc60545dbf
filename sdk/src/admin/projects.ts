import { type AdminProjectConfigJson, type AdminProjectJson } from "../contract/areas/projects.ts";
import type { AppContext } from "../client/app-context.ts";
import { projectConfigFromJson, type Project, type ProjectConfig } from "../client/projects.ts";
import { asServer } from "../transport/operation-call.ts";
import type { OAuthProviderCredentials } from "../project-admin/project-options.ts";

/** The admin view of the project (spec §3 "Project (admin view)", sdk-surface.md §17/§18), GET /internal/projects/current. */

type OAuthProviderJson = AdminProjectConfigJson["oauth_providers"][number];
type EmailConfigJson = AdminProjectConfigJson["email_config"];

export interface AdminOAuthProviderConfig extends OAuthProviderCredentials {
  readonly id: OAuthProviderJson["id"];
  readonly providerConfigId: OAuthProviderJson["provider_config_id"];
  readonly type: OAuthProviderJson["type"];
}

export interface AdminEmailConfig {
  readonly type: EmailConfigJson["type"];
  readonly host?: EmailConfigJson["host"];
  readonly port?: EmailConfigJson["port"];
  readonly username?: EmailConfigJson["username"];
  readonly password?: EmailConfigJson["password"];
  readonly senderName?: EmailConfigJson["sender_name"];
  readonly senderEmail?: EmailConfigJson["sender_email"];
}

export interface AdminProjectConfig extends Omit<ProjectConfig, "oauthProviders"> {
  readonly allowLocalhost: boolean;
  readonly oauthProviders: readonly AdminOAuthProviderConfig[];
  readonly emailConfig: AdminEmailConfig;
  readonly emailTheme: string;
  readonly domains: readonly { domain: string; handlerPath: string }[];
  readonly createTeamOnSignUp: boolean;
  readonly teamCreatorDefaultPermissions: readonly { id: string }[];
  readonly teamMemberDefaultPermissions: readonly { id: string }[];
  readonly userDefaultPermissions: readonly { id: string }[];
  readonly oauthAccountMergeStrategy: AdminProjectConfigJson["oauth_account_merge_strategy"];
}

export interface AdminProject extends Project {
  readonly description: string | null;
  readonly createdAt: Date;
  readonly isProductionMode: boolean;
  readonly isDevelopmentEnvironment: boolean;
  readonly ownerTeamId: AdminProjectJson["owner_team_id"];
  readonly logoUrl: string | null | undefined;
  readonly logoFullUrl: string | null | undefined;
  readonly config: AdminProjectConfig;
}

const ids = (list: readonly { id: string }[]) => list.map((p) => ({ id: p.id }));

export function adminProjectConfigFromJson(c: AdminProjectConfigJson): AdminProjectConfig {
  return {
    ...projectConfigFromJson(c),
    allowLocalhost: c.allow_localhost,
    oauthProviders: c.oauth_providers.map((p) => ({
      id: p.id,
      providerConfigId: p.provider_config_id,
      type: p.type,
      clientId: p.client_id,
      clientSecret: p.client_secret,
      facebookConfigId: p.facebook_config_id,
      microsoftTenantId: p.microsoft_tenant_id,
      appleBundleIds: p.apple_bundle_ids,
    })),
    emailConfig: {
      type: c.email_config.type,
      host: c.email_config.host,
      port: c.email_config.port,
      username: c.email_config.username,
      password: c.email_config.password,
      senderName: c.email_config.sender_name,
      senderEmail: c.email_config.sender_email,
    },
    emailTheme: c.email_theme,
    domains: c.domains.map((d) => ({ domain: d.domain, handlerPath: d.handler_path })),
    createTeamOnSignUp: c.create_team_on_sign_up,
    teamCreatorDefaultPermissions: ids(c.team_creator_default_permissions),
    teamMemberDefaultPermissions: ids(c.team_member_default_permissions),
    userDefaultPermissions: ids(c.user_default_permissions),
    oauthAccountMergeStrategy: c.oauth_account_merge_strategy,
  };
}

/** The admin view of GET /internal/projects/current (and of the JSON a server hands to a browser, project-admin.ts). */
export function adminProjectFromJson(json: AdminProjectJson): AdminProject {
  return {
    id: json.id,
    displayName: json.display_name,
    description: json.description ?? null,
    createdAt: new Date(json.created_at_millis),
    isProductionMode: json.is_production_mode,
    isDevelopmentEnvironment: json.is_development_environment ?? false,
    ownerTeamId: json.owner_team_id,
    logoUrl: json.logo_url,
    logoFullUrl: json.logo_full_url,
    config: adminProjectConfigFromJson(json.config),
  };
}

export async function getAdminProject(ctx: AppContext): Promise<AdminProject> {
  return adminProjectFromJson(await asServer.json(ctx.transport, "getAdminProject", {}));
}
