import { uuid } from "@authsim/sdk/runtime";
import type { TeamRecord, UserRecord } from "../store/records.ts";
import type { OpContext } from "./context.ts";
import { addMember, selectTeam } from "./memberships.ts";

/**
 * "Create team on sign-up" (spec §3 admin config; upstream's teams.createPersonalTeamOnSignUp): a new user of a project
 * that has it gets a team of their own, joins it as its creator (with the creator defaults) and has it selected, as if
 * they had created it (spec §4 "Creating a team"). Anonymous users get one too, named "Personal Team" as they have no
 * name or email yet (upstream creates it for every new user, whatever kind).
 */
export function createPersonalTeamIfConfigured(ctx: OpContext, user: UserRecord): void {
  const project = ctx.tables.projects.get(user.projectId);
  if (!project?.config.create_team_on_sign_up) return;
  const owner = user.displayName ?? user.primaryEmail;
  const team: TeamRecord = {
    id: uuid(ctx.random),
    projectId: user.projectId,
    displayName: owner ? `${owner}'s Team` : "Personal Team",
    profileImageUrl: null,
    clientMetadata: null,
    clientReadOnlyMetadata: null,
    serverMetadata: null,
    createdAtMillis: ctx.now,
  };
  ctx.tables.teams.set(team.id, team);
  addMember(ctx, team, user, "creator");
  selectTeam(ctx, user.id, team.id);
}
