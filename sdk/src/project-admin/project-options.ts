import type { AdminProjectConfigUpdate, AdminProjectUpdate } from "../contract/areas/project-admin.ts";
import type { AdminProjectConfigJson } from "../contract/areas/projects.ts";

/**
 * The options of a project update or creation and their wire form (sdk-surface.md §17, §18). Both apps send them: the
 * admin app's project.update() and an `internal` user's createProject() (client/internal-user.ts), so they live below
 * both, importing neither app.
 */

type OAuthProviderJson = AdminProjectConfigJson["oauth_providers"][number];

/** A standard provider's own settings, as the admin reads them (AdminOAuthProviderConfig, admin/projects.ts) and sets them. */
export interface OAuthProviderCredentials {
  readonly clientId?: OAuthProviderJson["client_id"];
  readonly clientSecret?: OAuthProviderJson["client_secret"];
  readonly facebookConfigId?: OAuthProviderJson["facebook_config_id"];
  readonly microsoftTenantId?: OAuthProviderJson["microsoft_tenant_id"];
  readonly appleBundleIds?: OAuthProviderJson["apple_bundle_ids"];
}

/** A provider as the admin sets it: shared, or standard with its own settings. */
type OAuthProviderOption =
  { id: string; type: "shared" } | ({ id: string; type: "standard" } & OAuthProviderCredentials);

export interface AdminProjectConfigUpdateOptions {
  signUpEnabled?: boolean;
  credentialEnabled?: boolean;
  magicLinkEnabled?: boolean;
  passkeyEnabled?: boolean;
  clientTeamCreationEnabled?: boolean;
  clientUserDeletionEnabled?: boolean;
  allowLocalhost?: boolean;
  allowUserApiKeys?: boolean;
  allowTeamApiKeys?: boolean;
  oauthProviders?: readonly OAuthProviderOption[];
  domains?: readonly { domain: string; handlerPath: string }[];
  emailConfig?:
    | { type: "shared" }
    | {
        type: "standard";
        host: string;
        port: number;
        username: string;
        password: string;
        senderName: string;
        senderEmail: string;
      };
  emailTheme?: string;
  createTeamOnSignUp?: boolean;
  teamCreatorDefaultPermissions?: readonly { id: string }[];
  teamMemberDefaultPermissions?: readonly { id: string }[];
  userDefaultPermissions?: readonly { id: string }[];
  oauthAccountMergeStrategy?: "link_method" | "raise_error" | "allow_duplicates";
}

export interface AdminProjectUpdateOptions {
  displayName?: string;
  description?: string | null;
  isProductionMode?: boolean;
  onboardingStatus?: AdminProjectUpdate["onboarding_status"];
  /** Written through the config override at the project level (project.requirePublishableClientKey), as upstream does. */
  requirePublishableClientKey?: boolean;
  logoUrl?: string | null;
  logoFullUrl?: string | null;
  logoDarkModeUrl?: string | null;
  logoFullDarkModeUrl?: string | null;
  config?: AdminProjectConfigUpdateOptions;
}

export interface AdminProjectCreateOptions extends AdminProjectUpdateOptions {
  displayName: string;
  /** The owner team (a team of the `internal` project the user belongs to). */
  teamId: string;
  isDevelopmentEnvironment?: boolean;
}

const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function configToWire(c: AdminProjectConfigUpdateOptions): AdminProjectConfigUpdate {
  return defined({
    sign_up_enabled: c.signUpEnabled,
    credential_enabled: c.credentialEnabled,
    magic_link_enabled: c.magicLinkEnabled,
    passkey_enabled: c.passkeyEnabled,
    client_team_creation_enabled: c.clientTeamCreationEnabled,
    client_user_deletion_enabled: c.clientUserDeletionEnabled,
    allow_localhost: c.allowLocalhost,
    allow_user_api_keys: c.allowUserApiKeys,
    allow_team_api_keys: c.allowTeamApiKeys,
    oauth_providers: c.oauthProviders?.map((p) =>
      p.type === "shared"
        ? { id: p.id, type: "shared" as const }
        : defined({
            id: p.id,
            type: "standard" as const,
            client_id: p.clientId,
            client_secret: p.clientSecret,
            facebook_config_id: p.facebookConfigId,
            microsoft_tenant_id: p.microsoftTenantId,
            apple_bundle_ids: p.appleBundleIds?.slice(),
          }),
    ),
    domains: c.domains?.map((d) => ({ domain: d.domain, handler_path: d.handlerPath })),
    email_config:
      c.emailConfig === undefined
        ? undefined
        : c.emailConfig.type === "shared"
          ? { type: "shared" as const }
          : {
              type: "standard" as const,
              host: c.emailConfig.host,
              port: c.emailConfig.port,
              username: c.emailConfig.username,
              password: c.emailConfig.password,
              sender_name: c.emailConfig.senderName,
              sender_email: c.emailConfig.senderEmail,
            },
    email_theme: c.emailTheme,
    create_team_on_sign_up: c.createTeamOnSignUp,
    team_creator_default_permissions: c.teamCreatorDefaultPermissions?.map((p) => ({ id: p.id })),
    team_member_default_permissions: c.teamMemberDefaultPermissions?.map((p) => ({ id: p.id })),
    user_default_permissions: c.userDefaultPermissions?.map((p) => ({ id: p.id })),
    oauth_account_merge_strategy: c.oauthAccountMergeStrategy,
  });
}

export function adminProjectUpdateToWire(
  o: Omit<AdminProjectUpdateOptions, "requirePublishableClientKey">,
): AdminProjectUpdate {
  return defined({
    display_name: o.displayName,
    description: o.description,
    is_production_mode: o.isProductionMode,
    onboarding_status: o.onboardingStatus,
    logo_url: o.logoUrl,
    logo_full_url: o.logoFullUrl,
    logo_dark_mode_url: o.logoDarkModeUrl,
    logo_full_dark_mode_url: o.logoFullDarkModeUrl,
    config: o.config ? configToWire(o.config) : undefined,
  });
}
