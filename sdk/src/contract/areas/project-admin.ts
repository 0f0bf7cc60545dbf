import { z } from "zod";
import { listEnvelope, uuidV4 } from "./common.ts";
import { adminOAuthProviderConfig, adminProject, domainConfig } from "./projects.ts";
import { created, defineOperations, json, success } from "../define-operations.ts";

/**
 * Project administration (spec §3 "Project (admin view)", §6, §7 Admin; protocol.md §5.9, §6.5): the admin update of
 * /internal/projects/current, owned projects of `internal` users, transfer, and the config endpoints.
 */

const permissionRefs = z.array(z.object({ id: z.string() }));

/** A trusted domain as an admin writes it: its URL must name http(s), refused in upstream's words (no path). */
const domainUpdate = domainConfig.extend({
  domain: z.string().refine((d) => /^https?:\/\//.test(d), {
    message: "URL must start with http:// or https://",
    params: { bare: true },
  }),
});

/** One OAuth provider as an admin writes it: `shared` keys (upstream's), or `standard` with the app's own client. */
export const adminOAuthProviderUpdate = adminOAuthProviderConfig
  .omit({ provider_config_id: true })
  // A standard provider's own client: present and not empty, each worded as upstream's schema words it.
  .superRefine((p, ctx) => {
    if (p.type !== "standard") return;
    for (const key of ["client_id", "client_secret"] as const) {
      if (p[key] === undefined) ctx.addIssue({ code: "custom", path: [key], message: "must be defined" });
      else if (p[key] === "") ctx.addIssue({ code: "custom", path: [key], message: "must not be empty" });
    }
  });
export type AdminOAuthProviderUpdate = z.infer<typeof adminOAuthProviderUpdate>;

/**
 * The email server as an admin sets it: the shared one (nothing else may be given), or the project's own SMTP server
 * with every field defined and a host that is not empty (as the real service's project update checks them).
 */
export const adminEmailConfigUpdate = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("shared") }),
  z.strictObject({
    type: z.literal("standard"),
    host: z.string().min(1),
    port: z.number().int(),
    username: z.string(),
    password: z.string(),
    sender_name: z.string(),
    sender_email: z.string(),
  }),
]);

/** Every config key of the admin view, each optional (sdk-surface.md §18 AdminProjectConfigUpdateOptions). */
export const adminProjectConfigUpdate = z.strictObject({
  sign_up_enabled: z.boolean().optional(),
  credential_enabled: z.boolean().optional(),
  magic_link_enabled: z.boolean().optional(),
  passkey_enabled: z.boolean().optional(),
  client_team_creation_enabled: z.boolean().optional(),
  client_user_deletion_enabled: z.boolean().optional(),
  allow_localhost: z.boolean().optional(),
  allow_user_api_keys: z.boolean().optional(),
  allow_team_api_keys: z.boolean().optional(),
  oauth_providers: z.array(adminOAuthProviderUpdate).optional(),
  domains: z.array(domainUpdate).optional(),
  email_config: adminEmailConfigUpdate.optional(),
  email_theme: z.string().optional(),
  create_team_on_sign_up: z.boolean().optional(),
  team_creator_default_permissions: permissionRefs.optional(),
  team_member_default_permissions: permissionRefs.optional(),
  user_default_permissions: permissionRefs.optional(),
  oauth_account_merge_strategy: z.enum(["link_method", "raise_error", "allow_duplicates"]).optional(),
  require_email_verification: z.boolean().optional(),
});
export type AdminProjectConfigUpdate = z.infer<typeof adminProjectConfigUpdate>;

export const onboardingStatuses = [
  "config_choice",
  "apps_selection",
  "auth_setup",
  "domain_setup",
  "email_theme_setup",
  "payments_setup",
  "welcome",
  "completed",
] as const;

const optionalUrl = z.string().nullable().optional();

export const adminProjectUpdate = z.strictObject({
  display_name: z.string().min(1).max(256).optional(),
  description: z.string().max(1024).nullable().optional(),
  logo_url: optionalUrl,
  logo_full_url: optionalUrl,
  logo_dark_mode_url: optionalUrl,
  logo_full_dark_mode_url: optionalUrl,
  is_production_mode: z.boolean().optional(),
  onboarding_status: z.enum(onboardingStatuses).optional(),
  onboarding_state: z.unknown().optional(),
  config: adminProjectConfigUpdate.optional(),
});
export type AdminProjectUpdate = z.infer<typeof adminProjectUpdate>;

/** POST /internal/projects: the update fields, a required name and the owner team (protocol.md §5.9). */
export const ownedProjectCreate = adminProjectUpdate.extend({
  display_name: z.string().min(1).max(256),
  is_development_environment: z.boolean().optional(),
  owner_team_id: uuidV4,
});
export type OwnedProjectCreate = z.infer<typeof ownedProjectCreate>;

export const ownedProjectList = listEnvelope(adminProject);

/** POST /internal/projects/transfer (spec §4 "Project transfer"). */
export const projectTransfer = z.strictObject({ project_id: z.string().min(1), new_team_id: uuidV4 });
/** Its answer: upstream's route answers `success` as the string "true", unlike the boolean of other routes. */
export const projectTransferResponse = z.object({ success: z.literal("true") });

/** The config system (protocol.md §6.5): levels of override, and configs carried as JSON strings. */
export const configLevels = ["project", "branch", "environment"] as const;
export type ConfigLevel = (typeof configLevels)[number];
export const configLevelParams = z.strictObject({ level: z.enum(configLevels) });
export const configResponse = z.object({ config_string: z.string() });
export const configOverrideUpdate = z.strictObject({ config_override_string: z.string() });
/** POST /internal/config/override/{level}/reset-keys: the keys to drop, each with everything under it. */
export const configResetKeys = z.strictObject({ keys: z.array(z.string()) });
/** Where a branch config was pushed from (GET /internal/config/source); the branch PUT must name it. */
export const configSource = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("pushed-from-github"),
    owner: z.string(),
    repo: z.string(),
    branch: z.string(),
    commit_hash: z.string(),
    config_file_path: z.string(),
  }),
  z.strictObject({ type: z.literal("pushed-from-unknown") }),
  z.strictObject({ type: z.literal("unlinked") }),
]);
export type ConfigSourceJson = z.infer<typeof configSource>;
export const configSourceResponse = z.object({ source: configSource });
export const configOverrideReplace = z.strictObject({ config_string: z.string(), source: configSource.optional() });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const projectAdminOperations = defineOperations("project-admin", {
  getAdminProject: {
    method: "GET",
    path: "/internal/projects/current",
    access: "admin",
    errors: [],
    responses: [json(adminProject)],
  },
  updateAdminProject: {
    method: "PATCH",
    path: "/internal/projects/current",
    access: "admin",
    body: adminProjectUpdate,
    errors: [
      "INVALID_SHARED_OAUTH_PROVIDER_ID",
      "INVALID_STANDARD_OAUTH_PROVIDER_ID",
      "PERMISSION_NOT_FOUND",
      "SCHEMA_ERROR",
      "WRONG_PERMISSION_SCOPE",
    ],
    responses: [json(adminProject)],
  },
  deleteAdminProject: {
    method: "DELETE",
    path: "/internal/projects/current",
    access: "admin",
    errors: [],
    responses: [success],
  },
  listOwnedProjects: {
    method: "GET",
    path: "/internal/projects",
    access: "client",
    errors: ["EXPECTED_INTERNAL_PROJECT", "USER_AUTHENTICATION_REQUIRED"],
    responses: [json(ownedProjectList)],
  },
  createOwnedProject: {
    method: "POST",
    path: "/internal/projects",
    access: "client",
    body: ownedProjectCreate,
    errors: [
      "EXPECTED_INTERNAL_PROJECT",
      "INVALID_SHARED_OAUTH_PROVIDER_ID",
      "INVALID_STANDARD_OAUTH_PROVIDER_ID",
      "PERMISSION_NOT_FOUND",
      "SCHEMA_ERROR",
      "TEAM_MEMBERSHIP_NOT_FOUND",
      "TEAM_NOT_FOUND",
      "USER_AUTHENTICATION_REQUIRED",
      "WRONG_PERMISSION_SCOPE",
    ],
    responses: [created(adminProject)],
  },
  transferProject: {
    method: "POST",
    path: "/internal/projects/transfer",
    access: "client",
    body: projectTransfer,
    errors: [
      "EXPECTED_INTERNAL_PROJECT",
      "PROJECT_NOT_FOUND",
      "TEAM_MEMBERSHIP_NOT_FOUND",
      "TEAM_PERMISSION_REQUIRED",
      "USER_AUTHENTICATION_REQUIRED",
    ],
    responses: [json(projectTransferResponse)],
  },
  getConfig: {
    method: "GET",
    path: "/internal/config",
    access: "admin",
    errors: [],
    responses: [json(configResponse)],
  },
  // A server key may read and write the branch level only (the handler refuses the others with a plain 403).
  getConfigOverride: {
    method: "GET",
    path: "/internal/config/override/:level",
    access: "server",
    params: configLevelParams,
    errors: [],
    responses: [json(configResponse)],
  },
  updateConfigOverride: {
    method: "PATCH",
    path: "/internal/config/override",
    access: "admin",
    body: configOverrideUpdate,
    errors: [],
    responses: [success],
  },
  replaceConfigOverride: {
    method: "PUT",
    path: "/internal/config/override/:level",
    access: "server",
    params: configLevelParams,
    body: configOverrideReplace,
    errors: [],
    responses: [success],
  },
  // What the published SDK sends for updateConfig (level "environment") and requirePublishableClientKey ("project").
  updateConfigOverrideLevel: {
    method: "PATCH",
    path: "/internal/config/override/:level",
    access: "server",
    params: configLevelParams,
    body: configOverrideUpdate,
    errors: [],
    responses: [success],
  },
  getConfigSource: {
    method: "GET",
    path: "/internal/config/source",
    access: "admin",
    errors: [],
    responses: [json(configSourceResponse)],
  },
  unlinkConfigSource: {
    method: "DELETE",
    path: "/internal/config/source",
    access: "admin",
    errors: [],
    responses: [success],
  },
  resetConfigOverrideKeys: {
    method: "POST",
    path: "/internal/config/override/:level/reset-keys",
    access: "admin",
    params: configLevelParams,
    body: configResetKeys,
    errors: [],
    responses: [success],
  },
});
