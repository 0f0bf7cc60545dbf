import { uuid } from "@authsim/sdk/runtime";
import type { TeamRecord, UserRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { startOnFreePlan } from "../payments/internal-plans.ts";
import { announceTeamCreated } from "../webhooks/webhook-events.ts";
import { addMember, selectTeam } from "./memberships.ts";

/**
 * "Create team on sign-up" (spec §3 admin config; upstream's teams.createPersonalTeamOnSignUp): a new user of a project
 * that has it gets a team of their own, joins it as its creator (with the creator defaults) and has it selected, as if
 * they had created it (spec §4 "Creating a team"). Anonymous users get one too, named "Personal Team" as they have no
 * name or email yet (upstream creates it for every new user, whatever kind).
 */
const DEFAULT_NAME = "Personal Team";
const personalTeamName = (user: UserRecord): string =>
  user.displayName || user.primaryEmail ? `${user.displayName || user.primaryEmail}'s Team` : DEFAULT_NAME;

/**
 * An anonymous user who signs up (is upgraded): each of its teams still named "Personal Team" takes the user's name, as
 * upstream renames it; a team renamed meanwhile keeps its name.
 */
export function renamePersonalTeamOnUpgrade(ctx: OpContext, user: UserRecord): void {
  const name = personalTeamName(user);
  if (name === DEFAULT_NAME) return;
  for (const membership of ctx.tables.teamMemberships.values()) {
    if (membership.userId !== user.id) continue;
    const team = ctx.tables.teams.get(membership.teamId);
    if (team && team.displayName === DEFAULT_NAME) ctx.tables.teams.set(team.id, { ...team, displayName: name });
  }
}

export function createPersonalTeamIfConfigured(ctx: OpContext, user: UserRecord): void {
  const project = ctx.tables.projects.get(user.projectId);
  if (!project?.config.create_team_on_sign_up) return;
  const team: TeamRecord = {
    id: uuid(ctx.random),
    projectId: user.projectId,
    displayName: personalTeamName(user),
    profileImageUrl: null,
    clientMetadata: null,
    clientReadOnlyMetadata: null,
    serverMetadata: null,
    createdAtMillis: ctx.now,
  };
  ctx.tables.teams.set(team.id, team);
  addMember(ctx, team, user, "creator");
  selectTeam(ctx, user.id, team.id);
  startOnFreePlan(ctx, team);
  // Made as the real service makes it, through its teams handler, which announces it.
  announceTeamCreated(ctx, team);
}
