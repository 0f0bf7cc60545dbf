import type { Tables } from "../../store/store.ts";
import type { TeamRecord, UserRecord } from "../../store/records.ts";
import { serverUserView } from "../../views/users.ts";
import { serverTeamView } from "../../views/teams.ts";
import type { OpContext } from "../context.ts";
import { appOfProject, createMessage } from "./webhooks.ts";

/**
 * The changes the real service announces to a project's webhook endpoints, with their event types and payloads
 * (`{type, data}`; data as its webhook event schemas define it): users, teams, memberships and permission grants.
 *
 * An operation announces a change where it makes it; the message is made when the operation has finished, still in
 * its transaction (runOp calls `publishAnnounced`), so its payload is the state the request leaves (a user created
 * with its personal team and OAuth links, as the real handler reads it back), a refused request announces nothing,
 * and one change announced twice in a request (an upgrade that is also an update) is one message.
 *
 * The real service sends every message to Svix, whose application for the project it creates first. Here a message is
 * kept only once the project has its application (made by POST /webhooks/svix-token, which the dashboard and the real
 * e2e helpers call before they add an endpoint, or through the Svix API): before that nobody could have read it, and
 * a provider that nobody listens to keeps no message per sign-up.
 */

export type WebhookEventType =
  | "user.created"
  | "user.updated"
  | "user.deleted"
  | "team.created"
  | "team.updated"
  | "team.deleted"
  | "team_membership.created"
  | "team_membership.deleted"
  | "team_permission.created"
  | "team_permission.deleted"
  | "project_permission.created"
  | "project_permission.deleted";

interface Announcement {
  projectId: string;
  type: WebhookEventType;
  /** One message per key and type in a transaction. */
  key: string;
  /** The payload's data when published; null leaves it out (the record is gone again). */
  data: (tables: Tables) => unknown;
}

// The transaction's announcements. Transactions run one at a time on the one set of tables, so keying by the tables
// is keying by the running transaction; runOp clears the list when a transaction starts and publishes it at its end.
const announced = new WeakMap<Tables, Announcement[]>();

function announce(ctx: OpContext, a: Announcement): void {
  const list = announced.get(ctx.tables) ?? [];
  if (!announced.has(ctx.tables)) announced.set(ctx.tables, list);
  if (!list.some((x) => x.type === a.type && x.key === a.key)) list.push(a);
}

/** Forgets what an earlier transaction announced and did not publish (a rolled-back one). */
export function clearAnnounced(tables: Tables): void {
  announced.delete(tables);
}

/** Makes the messages of what the operation announced, in order, for projects with a webhook application. */
export function publishAnnounced(ctx: OpContext): void {
  const list = announced.get(ctx.tables);
  announced.delete(ctx.tables);
  for (const a of list ?? []) {
    const app = appOfProject(ctx, a.projectId);
    if (!app) continue;
    const data = a.data(ctx.tables);
    if (data === null) continue;
    createMessage(ctx, app, { eventType: a.type, payload: { type: a.type, data } });
  }
}

const userNow = (tables: Tables, id: string) => {
  const user = tables.users.get(id);
  return user ? serverUserView(tables, user) : null;
};
const teamNow = (tables: Tables, id: string) => {
  const team = tables.teams.get(id);
  return team ? serverTeamView(team) : null;
};

export const announceUserCreated = (ctx: OpContext, user: UserRecord) =>
  announce(ctx, { projectId: user.projectId, type: "user.created", key: user.id, data: (t) => userNow(t, user.id) });

export const announceUserUpdated = (ctx: OpContext, user: UserRecord) =>
  announce(ctx, { projectId: user.projectId, type: "user.updated", key: user.id, data: (t) => userNow(t, user.id) });

/** The user's teams as they were before it was deleted (each membership's deletion is announced first). */
export function announceUserDeleted(ctx: OpContext, user: UserRecord, teamIds: readonly string[]): void {
  for (const teamId of teamIds) announceMembershipDeleted(ctx, user.projectId, teamId, user.id);
  announce(ctx, {
    projectId: user.projectId,
    type: "user.deleted",
    key: user.id,
    data: () => ({ id: user.id, teams: teamIds.map((id) => ({ id })) }),
  });
}

export const announceTeamCreated = (ctx: OpContext, team: TeamRecord) =>
  announce(ctx, { projectId: team.projectId, type: "team.created", key: team.id, data: (t) => teamNow(t, team.id) });

export const announceTeamUpdated = (ctx: OpContext, team: TeamRecord) =>
  announce(ctx, { projectId: team.projectId, type: "team.updated", key: team.id, data: (t) => teamNow(t, team.id) });

export const announceTeamDeleted = (ctx: OpContext, team: TeamRecord) =>
  announce(ctx, { projectId: team.projectId, type: "team.deleted", key: team.id, data: () => ({ id: team.id }) });

export const announceMembershipCreated = (ctx: OpContext, projectId: string, teamId: string, userId: string) =>
  announce(ctx, {
    projectId,
    type: "team_membership.created",
    key: `${teamId}:${userId}`,
    data: () => ({ team_id: teamId, user_id: userId }),
  });

export const announceMembershipDeleted = (ctx: OpContext, projectId: string, teamId: string, userId: string) =>
  announce(ctx, {
    projectId,
    type: "team_membership.deleted",
    key: `${teamId}:${userId}`,
    data: () => ({ team_id: teamId, user_id: userId }),
  });

export function announceTeamPermission(
  ctx: OpContext,
  change: "created" | "deleted",
  projectId: string,
  grant: { id: string; teamId: string; userId: string },
): void {
  announce(ctx, {
    projectId,
    type: `team_permission.${change}`,
    key: `${grant.teamId}:${grant.userId}:${grant.id}`,
    data: () => ({ id: grant.id, team_id: grant.teamId, user_id: grant.userId }),
  });
}

export function announceProjectPermission(
  ctx: OpContext,
  change: "created" | "deleted",
  projectId: string,
  grant: { id: string; userId: string },
): void {
  announce(ctx, {
    projectId,
    type: `project_permission.${change}`,
    key: `${grant.userId}:${grant.id}`,
    data: () => ({ id: grant.id, user_id: grant.userId }),
  });
}
