import type { Auth } from "../auth/parse-auth.ts";
import type { AuthedContext, OpContext } from "../../domain/ops/context.ts";
import {
  addTeamMember,
  getMemberProfile,
  listMemberProfiles,
  removeTeamMember,
  updateMemberProfile,
  type MemberProfile,
} from "../../domain/ops/teams/team-members.ts";
import { clientMemberProfileView, membershipView, serverMemberProfileView } from "../../domain/views/team-members.ts";
import { created, ok, success, type RouteTable } from "./define.ts";

/** Team memberships and member profiles (protocol.md §5.4, §6.4). */

const authed = (ctx: OpContext, auth: Auth): AuthedContext => ({ ...ctx, auth });
const profileView = (ctx: OpContext, auth: Auth | null, profile: MemberProfile) =>
  auth?.type === "client" ? clientMemberProfileView(profile) : serverMemberProfileView(ctx.tables, profile);

export const teamMemberRoutes: RouteTable = {
  addTeamMember: {
    handler: ({ auth, ctx, params }) =>
      created(membershipView(addTeamMember(authed(ctx, auth), params.team_id, params.user_id))),
  },
  removeTeamMember: {
    handler: ({ auth, ctx, params }) => {
      removeTeamMember(authed(ctx, auth), params.team_id, params.user_id);
      return success();
    },
  },
  listTeamMemberProfiles: {
    handler: ({ auth, ctx, query }) => {
      const profiles = listMemberProfiles(authed(ctx, auth), {
        ...(query.team_id !== undefined ? { teamId: query.team_id } : {}),
        ...(query.user_id !== undefined ? { userIdOrMe: query.user_id } : {}),
      });
      return ok({ items: profiles.map((p) => profileView(ctx, auth, p)), is_paginated: false });
    },
  },
  getTeamMemberProfile: {
    handler: ({ auth, ctx, params }) =>
      ok(profileView(ctx, auth, getMemberProfile(authed(ctx, auth), params.team_id, params.user_id))),
  },
  updateTeamMemberProfile: {
    handler: ({ auth, ctx, params, body }) =>
      ok(profileView(ctx, auth, updateMemberProfile(authed(ctx, auth), params.team_id, params.user_id, body))),
  },
};
