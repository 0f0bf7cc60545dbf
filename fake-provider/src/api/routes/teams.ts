import {
  clientTeamCreate,
  clientTeamUpdate,
  serverTeamCreate,
  serverTeamUpdate,
  teamListQuery,
  teamDeleteBody,
  teamParams,
} from "@authsim/sdk/contract";
import type { Auth } from "../auth/parse-auth.ts";
import type { AuthedContext, OpContext } from "../../domain/ops/context.ts";
import { createTeam, deleteTeam, getTeam, listTeams, updateTeam } from "../../domain/ops/teams.ts";
import type { TeamRecord } from "../../domain/store/records.ts";
import { clientTeamView, serverTeamView } from "../../domain/views/teams.ts";
import { created, ok, route, success, type AnyRouteSpec } from "./define.ts";

/** Teams (protocol.md §5.3, §6.4): a client gets the client view and sends the client fields; server and admin more. */

const isClient = (auth: Auth | null) => auth?.type === "client";
const teamView = (auth: Auth | null, team: TeamRecord) => (isClient(auth) ? clientTeamView(team) : serverTeamView(team));
const authed = (ctx: OpContext, auth: Auth | null): AuthedContext => ({ ...ctx, auth: auth! });

export const teamRoutes: Record<string, AnyRouteSpec> = {
  listTeams: route({
    query: teamListQuery,
    handler: ({ auth, ctx, query }) => {
      const page = listTeams(authed(ctx, auth), query);
      const items = page.items.map((t) => teamView(auth, t));
      return ok(page.paginated ? { items, is_paginated: true, pagination: { next_cursor: page.nextCursor } } : { items, is_paginated: false });
    },
  }),
  createTeam: route({
    body: (auth) => (isClient(auth) ? clientTeamCreate : serverTeamCreate),
    handler: ({ auth, ctx, body }) => created(teamView(auth, createTeam(authed(ctx, auth), body))),
  }),
  getTeam: route({
    params: teamParams,
    handler: ({ auth, ctx, params }) => ok(teamView(auth, getTeam(authed(ctx, auth), params.team_id))),
  }),
  updateTeam: route({
    params: teamParams,
    body: (auth) => (isClient(auth) ? clientTeamUpdate : serverTeamUpdate),
    handler: ({ auth, ctx, params, body }) => ok(teamView(auth, updateTeam(authed(ctx, auth), params.team_id, body))),
  }),
  deleteTeam: route({
    params: teamParams,
    body: teamDeleteBody,
    handler: ({ auth, ctx, params }) => {
      deleteTeam(authed(ctx, auth), params.team_id);
      return success();
    },
  }),
};
