import type { Auth } from "../auth/parse-auth.ts";
import type { AuthedContext, OpContext } from "../../domain/ops/context.ts";
import {
  acceptInvitation,
  acceptInvitationById,
  listInvitations,
  peekInvitation,
  revokeInvitation,
  sendInvitation,
} from "../../domain/ops/teams/invitations.ts";
import { invitationView } from "../../domain/views/invitations.ts";
import { ok, success, type RouteTable } from "./define.ts";

/** Team invitations (protocol.md §5.5, §6.4). */

const authed = (ctx: OpContext, auth: Auth): AuthedContext => ({ ...ctx, auth });

export const invitationRoutes: RouteTable = {
  sendTeamInvitation: {
    // 200 with the invitation id (A26), not 201: this is a custom "success" route.
    handler: ({ auth, ctx, body }) => ok({ success: true, id: sendInvitation(authed(ctx, auth), body).id }),
  },
  acceptTeamInvitation: {
    handler: ({ auth, ctx, body }) => {
      acceptInvitation(authed(ctx, auth), body.code);
      return ok({});
    },
  },
  checkTeamInvitationCode: {
    handler: ({ auth, ctx, body }) => {
      peekInvitation(authed(ctx, auth), body.code);
      return ok({ is_code_valid: true });
    },
  },
  teamInvitationDetails: {
    handler: ({ auth, ctx, body }) => {
      const { team } = peekInvitation(authed(ctx, auth), body.code, "details");
      return ok({ team_id: team.id, team_display_name: team.displayName });
    },
  },
  acceptTeamInvitationById: {
    handler: ({ auth, ctx, params, query }) => {
      acceptInvitationById(authed(ctx, auth), params.invitation_id, query.user_id);
      return ok({});
    },
  },
  listTeamInvitations: {
    handler: ({ auth, ctx, query }) => {
      const invitations = listInvitations(authed(ctx, auth), {
        ...(query.team_id !== undefined ? { teamId: query.team_id } : {}),
        ...(query.user_id !== undefined ? { userIdOrMe: query.user_id } : {}),
      });
      return ok({ items: invitations.map(invitationView), is_paginated: false });
    },
  },
  revokeTeamInvitation: {
    handler: ({ auth, ctx, params, query }) => {
      revokeInvitation(authed(ctx, auth), params.invitation_id, query.team_id);
      return success();
    },
  },
};
