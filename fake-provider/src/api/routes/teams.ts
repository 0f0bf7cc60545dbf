import type { Auth } from "../auth/parse-auth.ts";
import type { AuthedContext, OpContext } from "../../domain/ops/context.ts";
import { createTeam, deleteTeam, getTeam, listTeams, updateTeam } from "../../domain/ops/teams/teams.ts";
import type { TeamRecord } from "../../domain/store/records.ts";
import { clientTeamView, serverTeamView } from "../../domain/views/teams.ts";
import { created, ok, success, type RouteTable } from "./define.ts";

/** Teams (protocol.md §5.3, §6.4): a client gets the client view and sends the client fields; server and admin more. */

const isClient = (auth: Auth | null) => auth?.type === "client";
const teamView = (auth: Auth | null, team: TeamRecord) =>
  isClient(auth) ? clientTeamView(team) : serverTeamView(team);
const authed = (ctx: OpContext, auth: Auth): AuthedContext => ({ ...ctx, auth });

export const teamRoutes: RouteTable = {
  listTeams: {
    handler: ({ auth, ctx, query }) => {
      const page = listTeams(authed(ctx, auth), query);
      const items = page.items.map((t) => teamView(auth, t));
      return ok(
        page.paginated
          ? { items, is_paginated: true, pagination: { next_cursor: page.nextCursor } }
          : { items, is_paginated: false },
      );
    },
  },
  createTeam: {
    handler: ({ auth, ctx, body }) => created(teamView(auth, createTeam(authed(ctx, auth), body))),
  },
  getTeam: {
    handler: ({ auth, ctx, params }) => ok(teamView(auth, getTeam(authed(ctx, auth), params.team_id))),
  },
  updateTeam: {
    handler: ({ auth, ctx, params, body }) => ok(teamView(auth, updateTeam(authed(ctx, auth), params.team_id, body))),
  },
  deleteTeam: {
    handler: ({ auth, ctx, params }) => {
      deleteTeam(authed(ctx, auth), params.team_id);
      return success();
    },
  },
};
