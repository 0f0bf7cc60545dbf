import { INTERNAL_PROJECT_ID, type IntegrationFamily } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { knownError } from "../../errors/known-error.ts";
import { refusal } from "../../errors/refusals.ts";
import type { ProvisionedProjectRecord } from "../../store/integration-records.ts";
import type { ProjectRecord } from "../../store/records.ts";
import type { AuthedContext, OpContext } from "../context.ts";
import { createInternalApiKey } from "../projects/internal-api-keys.ts";
import { applyProjectUpdate } from "../projects/project-admin.ts";
import { defaultProjectConfig } from "../projects/projects.ts";
import { seedPermissionDefinitions } from "../teams/permissions.ts";
import { createTeam } from "../teams/teams.ts";
import { createCode, redeemCode } from "../sign-in/verification-codes.ts";
import { dashboardOrigin, type IntegrationClient } from "./integration-clients.ts";

/**
 * Projects an integration provisions for its users (upstream: integrations/<family>/projects/*): a project with no
 * owner team, remembered as provisioned by the calling client, with an admin key the integration keeps; later a
 * transfer link lets a signed-in dashboard user take it over (the project gets a new team of theirs as owner and stops
 * being provisioned).
 */

/** A century: how long the keys made for an integration last (upstream's). */
const CENTURY_MILLIS = 1000 * 60 * 60 * 24 * 365 * 100;

const provisionedDescription: Record<IntegrationFamily, { project: string; key: string }> = {
  neon: { project: "Created with Neon", key: "Auto-generated for Neon Auth (DO NOT DELETE)" },
  custom: { project: "Project created by an external integration", key: "Auto-generated for an external integration" },
};

/** POST /integrations/<family>/projects/provision. */
export function provisionProject(
  ctx: OpContext,
  family: IntegrationFamily,
  client: IntegrationClient,
  body: { display_name: string; connection_strings?: { branch_id: string; connection_string: string }[] | undefined },
): { project_id: string; super_secret_admin_key: string } {
  const bare: ProjectRecord = {
    id: uuid(ctx.random),
    displayName: body.display_name,
    description: provisionedDescription[family].project,
    createdAtMillis: ctx.now,
    isProductionMode: false,
    isDevelopmentEnvironment: false,
    ownerTeamId: null,
    config: { ...defaultProjectConfig },
  };
  seedPermissionDefinitions(ctx, bare.id);
  const project = applyProjectUpdate(ctx, bare, {
    config: {
      oauth_providers: [
        { id: "google", type: "shared" },
        { id: "github", type: "shared" },
      ],
      allow_localhost: true,
      credential_enabled: true,
    },
  });
  ctx.tables.projects.set(project.id, project);
  ctx.tables.provisionedProjects.set(project.id, {
    projectId: project.id,
    clientId: client.clientId,
    connectionStrings: connectionIds(ctx, body.connection_strings ?? []),
  });
  const keys = createInternalApiKey(ctx, project.id, {
    description: provisionedDescription[family].key,
    expires_at_millis: ctx.now + CENTURY_MILLIS,
    has_publishable_client_key: false,
    has_secret_server_key: false,
    has_super_secret_admin_key: true,
  });
  return { project_id: project.id, super_secret_admin_key: keys.superSecretAdminKey! };
}

/** Each branch's connection string is kept under a fresh id (upstream: in its data vault); no database is migrated. */
function connectionIds(ctx: OpContext, strings: { branch_id: string }[]): Record<string, string> {
  return Object.fromEntries(strings.map((c) => [c.branch_id, uuid(ctx.random)]));
}

/** The client's provisioned project with this id, if it has one (any other project reads as absent). */
function provisionedBy(ctx: OpContext, client: IntegrationClient, projectId: string): ProvisionedProjectRecord | null {
  const record = ctx.tables.provisionedProjects.get(projectId);
  return record && record.clientId === client.clientId ? record : null;
}

/** POST /integrations/neon/projects/connection: the project's databases are now these branches. */
export function connectNeonProject(
  ctx: OpContext,
  client: IntegrationClient,
  projectId: string,
  strings: { branch_id: string }[],
): { project_id: string } {
  const record = provisionedBy(ctx, client, projectId);
  if (!record) throw knownError("PROJECT_NOT_FOUND", { project_id: projectId });
  ctx.tables.provisionedProjects.set(projectId, { ...record, connectionStrings: connectionIds(ctx, strings) });
  return { project_id: projectId };
}

/** GET /integrations/<family>/projects/transfer: whether the client may still transfer the project. */
export function transferReadiness(
  ctx: OpContext,
  family: IntegrationFamily,
  client: IntegrationClient,
  projectId: string,
) {
  requireTransferable(ctx, family, client, projectId);
  return { message: "Ready to transfer project; please use the POST method to initiate it." };
}

function requireTransferable(
  ctx: OpContext,
  family: IntegrationFamily,
  client: IntegrationClient,
  projectId: string,
): ProvisionedProjectRecord {
  const record = provisionedBy(ctx, client, projectId);
  if (!record) throw refusal(family === "neon" ? "neonProjectNotTransferable" : "integrationProjectNotTransferable");
  return record;
}

/**
 * POST /integrations/<family>/projects/transfer (and /initiate): a confirmation link into the dashboard, valid an hour,
 * whose code is a verification code of the `internal` project. Several links may be open; the first confirmed wins.
 */
export function startTransfer(ctx: OpContext, family: IntegrationFamily, client: IntegrationClient, projectId: string) {
  const record = requireTransferable(ctx, family, client, projectId);
  const code = createCode(ctx, {
    projectId: INTERNAL_PROJECT_ID,
    purpose: "integration_project_transfer",
    data: { family, project_id: record.projectId, client_id: record.clientId },
  });
  const url = new URL(`${dashboardOrigin(ctx)}/integrations/${family}/projects/transfer/confirm`);
  url.searchParams.set("code", code.code);
  return { confirmation_url: url.toString() };
}

/**
 * POST …/transfer/confirm and …/confirm/check, in upstream's order: the code (not found, expired, used), the calling
 * project (internal only), the project still provisioned by that client; then, to confirm, a signed-in user, who gets
 * a new team owning the project.
 */
export function confirmTransfer(
  ctx: AuthedContext,
  family: IntegrationFamily,
  code: string,
  options: { checkOnly: boolean },
): { project_id: string } | { is_code_valid: true } {
  const found = redeemCode(ctx, ctx.auth.project.id, "integration_project_transfer", code, {
    consume: !options.checkOnly,
  });
  const data = found.data as { family?: string; project_id: string; client_id: string };
  if (data.family !== family) throw knownError("VERIFICATION_CODE_NOT_FOUND");
  if (ctx.auth.project.id !== INTERNAL_PROJECT_ID) throw refusal("integrationTransferInternalOnly");
  const notProvisioned = family === "neon" ? "neonTransferNotProvisioned" : "integrationTransferNotProvisioned";
  const record = ctx.tables.provisionedProjects.get(data.project_id);
  if (!record || record.clientId !== data.client_id) throw refusal(notProvisioned);
  if (options.checkOnly) return { is_code_valid: true };
  const user = ctx.auth.user;
  if (!user) throw knownError("USER_AUTHENTICATION_REQUIRED");
  ctx.tables.provisionedProjects.delete(record.projectId);
  const project = ctx.tables.projects.get(data.project_id);
  if (!project) throw refusal("integrationTransferProjectMissing");
  if (project.ownerTeamId) throw refusal("integrationTransferAlreadyOwned");
  const name = user.displayName ?? user.primaryEmail;
  // Created as the server would (the creator named), whatever the caller's own access.
  const team = createTeam(
    { ...ctx, auth: { ...ctx.auth, type: "admin" } },
    { display_name: name ? `${name}'s Team` : "Personal Team", creator_user_id: user.id },
  );
  ctx.tables.projects.set(project.id, { ...project, ownerTeamId: team.id });
  return { project_id: project.id };
}
