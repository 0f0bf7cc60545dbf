import type { ProjectSeed } from "@authsim/fixtures";
import { uuid } from "@authsim/sdk/runtime";
import { DEFAULT_THEME_ID } from "../../email/default-sources.ts";
import type { ProjectConfigRecord, ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { seedPermissionDefinitions } from "../teams/permissions.ts";

/** Projects and their key sets. Seeds come from fixtures/ (the dev project's id and keys are fixed, documented values). */

export const defaultProjectConfig: ProjectConfigRecord = {
  sign_up_enabled: true,
  credential_enabled: true,
  magic_link_enabled: false,
  passkey_enabled: false,
  anonymous_enabled: true,
  client_team_creation_enabled: false,
  client_user_deletion_enabled: false,
  allow_localhost: true,
  allow_user_api_keys: false,
  allow_team_api_keys: false,
  require_publishable_client_key: false,
  create_team_on_sign_up: false,
  oauth_account_merge_strategy: "link_method",
  domains: [],
  email_theme: DEFAULT_THEME_ID,
  // Upstream's defaults: creators get team_admin, members team_member (both seeded per project, domain/ops/teams/permissions.ts).
  team_creator_default_permissions: [{ id: "team_admin" }],
  team_member_default_permissions: [{ id: "team_member" }],
  user_default_permissions: [],
};

export function seedProject(ctx: OpContext, seed: ProjectSeed, ownerTeamId: string | null = null): ProjectRecord {
  const project: ProjectRecord = {
    id: seed.id,
    displayName: seed.display_name,
    description: seed.description ?? null,
    createdAtMillis: ctx.now,
    isProductionMode: false,
    isDevelopmentEnvironment: true,
    ownerTeamId,
    config: { ...defaultProjectConfig, ...seed.config },
  };
  ctx.tables.projects.set(project.id, project);
  seedPermissionDefinitions(ctx, project.id);
  const keySetId = uuid(ctx.random);
  ctx.tables.apiKeySets.set(keySetId, {
    id: keySetId,
    projectId: project.id,
    description: "Seeded keys",
    createdAtMillis: ctx.now,
    expiresAtMillis: null,
    manuallyRevokedAtMillis: null,
    publishableClientKey: seed.keys.publishable_client_key,
    secretServerKey: seed.keys.secret_server_key,
    superSecretAdminKey: seed.keys.super_secret_admin_key,
  });
  return project;
}
