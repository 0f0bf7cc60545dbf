import type { ZodType } from "zod";
import { listEnvelope } from "../contract/areas/common.ts";
import { clientTeam, type ClientTeamJson } from "../contract/areas/teams.ts";
import { type TeamMemberProfileUpdate } from "../contract/areas/team-members.ts";
import { asClient, type CallAuth } from "../transport/operation-call.ts";
import type { AppContext } from "./app-context.ts";
import { listReceivedInvitations, type ReceivedTeamInvitation } from "./team-invitations.ts";
import { clientTeamFromJson, type Team, type TeamCreateOptions, type TeamMemberProfile } from "./teams.ts";

/** The team members of the signed-in user (sdk-surface.md §9b): its teams, selected team, profiles and invitations. */

export interface EditableTeamMemberProfile extends TeamMemberProfile {
  update(options: { displayName?: string | null; profileImageUrl?: string | null }): Promise<void>;
}

/** A team, or anything carrying its id (the reference SDK passes team objects). */
export type TeamRef = { readonly id: string };

export interface UserTeams<T> {
  readonly selectedTeam: T | null;
  setSelectedTeam(team: TeamRef | string | null): Promise<void>;
  createTeam(options: TeamCreateOptions): Promise<T>;
  leaveTeam(team: TeamRef): Promise<void>;
  getTeam(teamId: string): Promise<T | null>;
  listTeams(): Promise<T[]>;
  listTeamInvitations(): Promise<ReceivedTeamInvitation[]>;
  getTeamProfile(team: TeamRef): Promise<EditableTeamMemberProfile>;
}

/** How a user object reaches its own rows: "me" with its session (client), or its id with the server key. */
export interface UserTarget {
  /** The `user_id` to send: "me" for a client, the id for server access. */
  userId: string;
  auth: CallAuth;
  /** Writes the user's selected team (PATCH /users/me or /users/{id}). */
  setSelectedTeamId(teamId: string | null): Promise<void>;
}

export const teamIdOf = (team: TeamRef | string | null): string | null =>
  typeof team === "string" ? team : (team?.id ?? null);

/** GET and PATCH /team-member-profiles/{team}/{user|me}: the user's own profile in a team. */
export async function getEditableProfile(
  ctx: AppContext,
  target: UserTarget,
  team: TeamRef,
): Promise<EditableTeamMemberProfile> {
  const params = { team_id: team.id, user_id: target.userId };
  const json = await asClient.json(ctx.transport, "getTeamMemberProfile", { ...target.auth, params });
  return {
    displayName: json.display_name,
    profileImageUrl: json.profile_image_url,
    async update(options) {
      const body: TeamMemberProfileUpdate = {
        display_name: options.displayName,
        profile_image_url: options.profileImageUrl,
      };
      await asClient.send(ctx.transport, "updateTeamMemberProfile", { ...target.auth, params, body });
    },
  };
}

/**
 * The team methods of a user, for a given team view (client Team or ServerTeam). Creating a team makes it the selected
 * one (spec §4), which the SDK writes itself as the reference SDK does, whatever the server already did.
 */
export function userTeamMethods<J extends ClientTeamJson, T extends { id: string }>(
  ctx: AppContext,
  target: UserTarget,
  view: { schema: ZodType<J>; build(json: J): T; createBody: Record<string, unknown> },
  selected: J | null,
): UserTeams<T> {
  const list = listEnvelope(view.schema);
  const listTeams = async () =>
    (
      await asClient.jsonAs(ctx.transport, "listTeams", { ...target.auth, query: { user_id: target.userId } }, list)
    ).items.map(view.build);
  return {
    selectedTeam: selected ? view.build(selected) : null,
    setSelectedTeam: (team) => target.setSelectedTeamId(teamIdOf(team)),
    async createTeam(options) {
      const body = {
        display_name: options.displayName,
        profile_image_url: options.profileImageUrl,
        ...view.createBody,
      };
      const json = await asClient.jsonAs(ctx.transport, "createTeam", { ...target.auth, body }, view.schema);
      await target.setSelectedTeamId(json.id);
      return view.build(json);
    },
    async leaveTeam(team) {
      await asClient.send(ctx.transport, "removeTeamMember", {
        ...target.auth,
        params: { team_id: team.id, user_id: target.userId },
        body: {},
      });
    },
    // As the reference SDK: found among the user's teams, so a team the user is not in is null, not an error.
    getTeam: async (teamId) => (await listTeams()).find((t) => t.id === teamId) ?? null,
    listTeams,
    listTeamInvitations: () => listReceivedInvitations(ctx, target.auth, target.userId),
    getTeamProfile: (team) => getEditableProfile(ctx, target, team),
  };
}

/** The client form: the user is "me", the session authenticates, and teams are client Team objects. */
export function clientUserTeams(
  ctx: AppContext,
  auth: CallAuth,
  selected: ClientTeamJson | null,
  update: (body: { selected_team_id: string | null }) => Promise<void>,
): UserTeams<Team> {
  return userTeamMethods(
    ctx,
    { userId: "me", auth, setSelectedTeamId: (teamId) => update({ selected_team_id: teamId }) },
    { schema: clientTeam, build: (json) => clientTeamFromJson(ctx, auth, json), createBody: { creator_user_id: "me" } },
    selected,
  );
}
