import { INTERNAL_PROJECT_ID, type OwnedProjectCreate } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import type { Auth } from "../../auth/caller.ts";
import { managesProject } from "../../auth/ownership.ts";
import { knownError } from "../../errors/known-error.ts";
import { requireTeamPermission } from "../teams/permission-grants.ts";
import type { ProjectRecord, UserRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { applyProjectUpdate } from "./project-admin.ts";
import { defaultProjectConfig } from "./projects.ts";
import { seedPermissionDefinitions } from "../teams/permissions.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * Projects owned through the `internal` project (spec §6 "Project owners (internal project only) can create and list
 * owned projects; an owner team owns each project"; protocol.md §5.9, §6.5, §8): a signed-in dashboard user lists and
 * creates the projects of the teams they belong to, and moves one to another of their teams.
 */

/**
 * The calls are made on the `internal` project by one of its users. The owned-projects list and create (upstream's
 * CRUD `onPrepare`) ask for the user first, then the project: `userFirst`. The transfer checks the project first.
 */
export function requireInternalUser(auth: Auth, order: "projectFirst" | "userFirst" = "projectFirst"): UserRecord {
  if (order === "userFirst" && !auth.user) throw knownError("USER_AUTHENTICATION_REQUIRED");
  if (auth.project.id !== INTERNAL_PROJECT_ID) throw knownError("EXPECTED_INTERNAL_PROJECT");
  if (!auth.user) throw knownError("USER_AUTHENTICATION_REQUIRED");
  return auth.user;
}

/** A team of the `internal` project that the user belongs to: TEAM_NOT_FOUND, else TEAM_MEMBERSHIP_NOT_FOUND. */
function requireOwnTeam(ctx: OpContext, user: UserRecord, teamId: string): void {
  const team = ctx.tables.teams.get(teamId);
  if (!team || team.projectId !== INTERNAL_PROJECT_ID) throw knownError("TEAM_NOT_FOUND", { team_id: teamId });
  if (!ctx.tables.teamMemberships.has(`${teamId}:${user.id}`))
    throw knownError("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: teamId, user_id: user.id });
}

export function listOwnedProjects(ctx: OpContext, user: UserRecord): ProjectRecord[] {
  return [...ctx.tables.projects.values()]
    .filter((p) => managesProject(ctx.tables, user.id, p))
    .sort((a, b) => a.createdAtMillis - b.createdAtMillis || (a.id < b.id ? -1 : 1));
}

/**
 * POST /internal/projects. The project gets no API keys: as upstream, keys are made afterwards through
 * /internal/api-keys by an admin of the new project (protocol.md §8), e.g. the owner with an admin access token.
 */
export function createOwnedProject(ctx: OpContext, user: UserRecord, body: OwnedProjectCreate): ProjectRecord {
  requireOwnTeam(ctx, user, body.owner_team_id);
  const bare: ProjectRecord = {
    id: uuid(ctx.random),
    displayName: body.display_name,
    // Upstream stores an empty description rather than none.
    description: "",
    createdAtMillis: ctx.now,
    isProductionMode: false,
    isDevelopmentEnvironment: body.is_development_environment ?? false,
    ownerTeamId: body.owner_team_id,
    config: { ...defaultProjectConfig },
  };
  // The permission definitions come first: the default-permission lists of the body are checked against them.
  seedPermissionDefinitions(ctx, bare.id);
  const { owner_team_id: _owner, is_development_environment: _dev, ...update } = body;
  const project = applyProjectUpdate(ctx, bare, update);
  ctx.tables.projects.set(project.id, project);
  return project;
}

/**
 * POST /internal/projects/transfer {project_id, new_team_id} (spec §4 "Project transfer"), checked in upstream's order:
 * the project exists, it has an owner team, the user is a member and (directly or through a contained permission) a
 * team_admin of that team, and a member of the new one (an admin there is not needed).
 */
export function transferProject(
  ctx: OpContext,
  user: UserRecord,
  body: { project_id: string; new_team_id: string },
): void {
  const project = ctx.tables.projects.get(body.project_id);
  if (!project) throw knownError("PROJECT_NOT_FOUND", { project_id: body.project_id });
  if (project.ownerTeamId === null) throw refusal("projectOwnerTeamTransferred");
  requireMembership(ctx, user, project.ownerTeamId);
  requireTeamPermission(ctx, INTERNAL_PROJECT_ID, project.ownerTeamId, user.id, "team_admin");
  requireMembership(ctx, user, body.new_team_id);
  ctx.tables.projects.set(project.id, { ...project, ownerTeamId: body.new_team_id });
}

function requireMembership(ctx: OpContext, user: UserRecord, teamId: string): void {
  if (!ctx.tables.teamMemberships.has(`${teamId}:${user.id}`))
    throw knownError("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: teamId, user_id: user.id });
}
