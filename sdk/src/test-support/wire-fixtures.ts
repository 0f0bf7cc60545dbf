import type { AdminProjectJson, ClientProjectJson } from "../contract/areas/projects.ts";
import type { ClientUserJson, ServerUserJson } from "../contract/areas/users.ts";
import { TEST_USER_ID } from "./tokens.ts";

/** Wire JSON for tests, typed by the contract so a schema change breaks them at compile time. */

export function clientUserJson(overrides: Partial<ClientUserJson> = {}): ClientUserJson {
  return {
    id: TEST_USER_ID,
    primary_email: "ada@example.com",
    primary_email_verified: true,
    display_name: "Ada",
    client_metadata: { theme: "dark" },
    client_read_only_metadata: null,
    profile_image_url: null,
    signed_up_at_millis: 1_700_000_000_000,
    has_password: true,
    auth_with_email: true,
    oauth_providers: [{ id: "github", account_id: "42", email: null }],
    selected_team_id: null,
    selected_team: null,
    requires_totp_mfa: false,
    otp_auth_enabled: false,
    passkey_auth_enabled: false,
    is_anonymous: false,
    is_restricted: false,
    restricted_reason: null,
    restricted_by_admin: false,
    restricted_by_admin_reason: null,
    ...overrides,
  };
}

export function serverUserJson(overrides: Partial<ServerUserJson> = {}): ServerUserJson {
  return {
    ...clientUserJson(),
    selected_team: null,
    primary_email_auth_enabled: true,
    server_metadata: { plan: "pro" },
    last_active_at_millis: 1_700_000_500_000,
    restricted_by_admin_private_details: null,
    country_code: "CH",
    risk_scores: { sign_up: { bot: 1, free_trial_abuse: 2 } },
    ...overrides,
  };
}

const clientConfig: ClientProjectJson["config"] = {
  sign_up_enabled: true,
  credential_enabled: true,
  magic_link_enabled: false,
  passkey_enabled: false,
  client_team_creation_enabled: true,
  client_user_deletion_enabled: false,
  allow_user_api_keys: false,
  allow_team_api_keys: true,
  enabled_oauth_providers: [{ id: "github" }],
  domains: [{ domain: "https://app.example.com", handler_path: "/handler" }],
};

export function clientProjectJson(): ClientProjectJson {
  return { id: "internal", display_name: "Stack Dashboard", config: clientConfig };
}

export function adminProjectJson(): AdminProjectJson {
  return {
    id: "internal",
    display_name: "Stack Dashboard",
    description: "Stack's admin dashboard",
    created_at_millis: 1_600_000_000_000,
    is_production_mode: false,
    is_development_environment: true,
    owner_team_id: null,
    config: {
      ...clientConfig,
      allow_localhost: true,
      oauth_providers: [{ provider_config_id: "github", id: "github", type: "shared" }],
      email_config: { type: "shared" },
      email_theme: "default-light",
      create_team_on_sign_up: false,
      team_creator_default_permissions: [{ id: "team_admin" }],
      team_member_default_permissions: [{ id: "team_member" }],
      user_default_permissions: [],
      oauth_account_merge_strategy: "link_method",
    },
  };
}
