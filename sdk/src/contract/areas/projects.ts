import { z } from "zod";
import { millis, projectId, uuidV4 } from "./common.ts";
import { defineOperations, json } from "../define-operations.ts";

/** Projects (spec §3, protocol.md §5.9). */

export const oauthProviderIds = [
  "google",
  "github",
  "microsoft",
  "spotify",
  "facebook",
  "discord",
  "gitlab",
  "bitbucket",
  "linkedin",
  "apple",
  "x",
  "twitch",
] as const;

export const domainConfig = z.object({ domain: z.string(), handler_path: z.string() });

export const clientProjectConfig = z.object({
  sign_up_enabled: z.boolean(),
  credential_enabled: z.boolean(),
  magic_link_enabled: z.boolean(),
  passkey_enabled: z.boolean(),
  client_team_creation_enabled: z.boolean(),
  client_user_deletion_enabled: z.boolean(),
  allow_user_api_keys: z.boolean(),
  allow_team_api_keys: z.boolean(),
  enabled_oauth_providers: z.array(z.object({ id: z.string() })),
  domains: z.array(domainConfig),
});

export const clientProject = z.object({
  id: projectId,
  display_name: z.string(),
  config: clientProjectConfig,
});

export const adminOAuthProviderConfig = z.object({
  provider_config_id: z.string(),
  id: z.string(),
  type: z.enum(["shared", "standard"]),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  facebook_config_id: z.string().optional(),
  microsoft_tenant_id: z.string().optional(),
  apple_bundle_ids: z.array(z.string()).optional(),
});

export const emailConfig = z.object({
  type: z.enum(["shared", "standard"]),
  host: z.string().optional(),
  port: z.number().int().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  sender_name: z.string().optional(),
  sender_email: z.string().optional(),
});

const permissionRef = z.object({ id: z.string() });

/** The admin view adds the settings a client has no business reading (the real client view has no allow_localhost). */
export const adminProjectConfig = clientProjectConfig.extend({
  allow_localhost: z.boolean(),
  oauth_providers: z.array(adminOAuthProviderConfig),
  email_config: emailConfig,
  email_theme: z.string(),
  create_team_on_sign_up: z.boolean(),
  team_creator_default_permissions: z.array(permissionRef),
  team_member_default_permissions: z.array(permissionRef),
  user_default_permissions: z.array(permissionRef),
  oauth_account_merge_strategy: z.enum(["link_method", "raise_error", "allow_duplicates"]),
});

export const adminProject = z.object({
  id: projectId,
  display_name: z.string(),
  description: z.string().nullable().optional(),
  logo_url: z.string().nullable().optional(),
  logo_full_url: z.string().nullable().optional(),
  logo_dark_mode_url: z.string().nullable().optional(),
  logo_full_dark_mode_url: z.string().nullable().optional(),
  onboarding_status: z.string().optional(),
  created_at_millis: millis,
  is_production_mode: z.boolean(),
  /** Absent from the real service's answers since 2026 (the project keeps the flag; authsim no longer shows it). */
  is_development_environment: z.boolean().optional(),
  owner_team_id: uuidV4.nullable(),
  config: adminProjectConfig,
});

export type ClientProjectJson = z.infer<typeof clientProject>;
export type AdminProjectJson = z.infer<typeof adminProject>;
export type AdminProjectConfigJson = z.infer<typeof adminProjectConfig>;

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const projectsOperations = defineOperations("projects", {
  getCurrentProject: {
    method: "GET",
    path: "/projects/current",
    access: "client",
    errors: [],
    responses: [json(clientProject)],
  },
});
