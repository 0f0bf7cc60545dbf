import { z } from "zod";
import { adminProject, type AdminProjectJson } from "../contract/areas/projects.ts";
import { configResponse, type AdminProjectConfigUpdate, type AdminProjectUpdate, type ConfigLevel } from "../contract/areas/project-admin.ts";
import type { AppContext } from "../client/app-context.ts";
import { productionModeErrors, type ProductionModeError } from "../urls/domains.ts";
import { adminProjectFromJson, type AdminOAuthProviderConfig, type AdminProject } from "./projects.ts";
import { AppConfigError } from "../client/app-config-error.ts";
import { asServer } from "../transport/operation-call.ts";

/**
 * The admin's project with its calls (sdk-surface.md §17, §18): update, delete, the config and its overrides, and the
 * production-mode checks of spec §5 (computed here from the project, with the one domain module).
 */

type OAuthProviderOption =
  | { id: string; type: "shared" }
  | ({ id: string; type: "standard" } & Pick<AdminOAuthProviderConfig, "clientId" | "clientSecret" | "facebookConfigId" | "microsoftTenantId" | "appleBundleIds">);

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
    | { type: "standard"; host: string; port: number; username: string; password: string; senderName: string; senderEmail: string };
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

export interface ManagedAdminProject extends AdminProject {
  readonly logoDarkModeUrl: string | null | undefined;
  readonly logoFullDarkModeUrl: string | null | undefined;
  readonly onboardingStatus: string | undefined;
  update(options: AdminProjectUpdateOptions): Promise<void>;
  delete(): Promise<void>;
  /** The complete config (GET /internal/config). */
  getConfig(): Promise<Record<string, unknown>>;
  /** Merges an override into the environment level (dotted keys, e.g. {"auth.allowSignUp": false}). */
  updateConfig(override: Record<string, unknown>): Promise<void>;
  getConfigOverride(level: ConfigLevel): Promise<Record<string, unknown>>;
  replaceConfigOverride(level: ConfigLevel, config: Record<string, unknown>): Promise<void>;
  /** Spec §5's checks, computed from this snapshot of the project (as the published SDK does, async). */
  getProductionModeErrors(): Promise<ProductionModeError[]>;
}

const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

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
        : defined({ id: p.id, type: "standard" as const, client_id: p.clientId, client_secret: p.clientSecret, facebook_config_id: p.facebookConfigId, microsoft_tenant_id: p.microsoftTenantId, apple_bundle_ids: p.appleBundleIds?.slice() }),
    ),
    domains: c.domains?.map((d) => ({ domain: d.domain, handler_path: d.handlerPath })),
    email_config:
      c.emailConfig === undefined
        ? undefined
        : c.emailConfig.type === "shared"
          ? { type: "shared" as const }
          : { type: "standard" as const, host: c.emailConfig.host, port: c.emailConfig.port, username: c.emailConfig.username, password: c.emailConfig.password, sender_name: c.emailConfig.senderName, sender_email: c.emailConfig.senderEmail },
    email_theme: c.emailTheme,
    create_team_on_sign_up: c.createTeamOnSignUp,
    team_creator_default_permissions: c.teamCreatorDefaultPermissions?.map((p) => ({ id: p.id })),
    team_member_default_permissions: c.teamMemberDefaultPermissions?.map((p) => ({ id: p.id })),
    user_default_permissions: c.userDefaultPermissions?.map((p) => ({ id: p.id })),
    oauth_account_merge_strategy: c.oauthAccountMergeStrategy,
  });
}

export function adminProjectUpdateToWire(o: Omit<AdminProjectUpdateOptions, "requirePublishableClientKey">): AdminProjectUpdate {
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

const parseConfigString = (s: string) => z.record(z.string(), z.unknown()).parse(JSON.parse(s));

async function writeOverride(ctx: AppContext, level: ConfigLevel, method: "PATCH" | "PUT", config: Record<string, unknown>): Promise<void> {
  // A branch PUT must say where the config came from (GET /internal/config/source); the kit pushes from no known place.
  const source = level === "branch" ? { source: { type: "pushed-from-unknown" as const } } : {};
  const params = { level };
  await (method === "PATCH"
    ? asServer.send(ctx.transport, "updateConfigOverrideLevel", { params, body: { config_override_string: JSON.stringify(config) } })
    : asServer.send(ctx.transport, "replaceConfigOverride", { params, body: { config_string: JSON.stringify(config), ...source } }));
}

/**
 * The admin view with its calls. Spec §5: the project id in the JSON must match the app's, or the JSON belongs to
 * another project and using it would act on the wrong one.
 */
export function managedAdminProjectFromJson(ctx: AppContext, json: AdminProjectJson): ManagedAdminProject {
  if (json.id !== ctx.projectId) {
    throw new AppConfigError("PROJECT_ID_MISMATCH", `The project ID of the provided project JSON (${json.id}) does not match the project ID of the app (${ctx.projectId}).`);
  }
  const project = adminProjectFromJson(json);
  const { config } = project;
  return {
    ...project,
    logoDarkModeUrl: json.logo_dark_mode_url,
    logoFullDarkModeUrl: json.logo_full_dark_mode_url,
    onboardingStatus: json.onboarding_status,
    async update(options) {
      const { requirePublishableClientKey, ...rest } = options;
      const wire = adminProjectUpdateToWire(rest);
      if (Object.keys(wire).length > 0) await asServer.send(ctx.transport, "updateAdminProject", { body: wire });
      if (requirePublishableClientKey !== undefined) {
        await writeOverride(ctx, "project", "PATCH", { "project.requirePublishableClientKey": requirePublishableClientKey });
      }
    },
    async delete() {
      await asServer.send(ctx.transport, "deleteAdminProject", {});
    },
    async getConfig() {
      return parseConfigString((await asServer.json(ctx.transport, "getConfig", {}, configResponse)).config_string);
    },
    updateConfig: (override) => writeOverride(ctx, "environment", "PATCH", override),
    async getConfigOverride(level) {
      return parseConfigString((await asServer.json(ctx.transport, "getConfigOverride", { params: { level } }, configResponse)).config_string);
    },
    replaceConfigOverride: (level, replacement) => writeOverride(ctx, level, "PUT", replacement),
    getProductionModeErrors: async () => productionModeErrors({ allowLocalhost: config.allowLocalhost, domains: json.config.domains, projectId: json.id }),
  };
}

export async function getManagedAdminProject(ctx: AppContext): Promise<ManagedAdminProject> {
  return managedAdminProjectFromJson(ctx, await asServer.json(ctx.transport, "getAdminProject", {}, adminProject));
}
