import type { PermissionScope } from "@authsim/sdk/contract";
import type { Auth } from "../auth/parse-auth.ts";
import type { AuthedContext, OpContext } from "../../domain/ops/context.ts";
import {
  grantProjectPermissionFor,
  grantTeamPermissionFor,
  listProjectPermissionsFor,
  listTeamPermissionsFor,
  revokeProjectPermissionFor,
  revokeTeamPermissionFor,
} from "../../domain/ops/teams/permission-requests.ts";
import {
  createDefinition,
  deleteDefinition,
  listDefinitions,
  updateDefinition,
} from "../../domain/ops/teams/permissions.ts";
import { definitionView, projectPermissionView, teamPermissionView } from "../../domain/views/permissions.ts";
import { created, ok, success, type RouteFor, type RouteTable } from "./define.ts";

/** Granted permissions and permission definitions (protocol.md §5.4, §6.4). */

const authed = (ctx: OpContext, auth: Auth): AuthedContext => ({ ...ctx, auth });

/** The four admin CRUD routes of one definition scope. */
function definitionRoutes(scope: PermissionScope): {
  list: RouteFor<"listTeamPermissionDefinitions" | "listProjectPermissionDefinitions">;
  create: RouteFor<"createTeamPermissionDefinition" | "createProjectPermissionDefinition">;
  update: RouteFor<"updateTeamPermissionDefinition" | "updateProjectPermissionDefinition">;
  delete: RouteFor<"deleteTeamPermissionDefinition" | "deleteProjectPermissionDefinition">;
} {
  return {
    list: {
      handler: ({ auth, ctx, query }) => {
        const needle = query.query?.toLowerCase();
        const all = listDefinitions(ctx, auth.project.id, scope).filter((d) => !needle || d.id.includes(needle));
        // The published admin SDK's paginated listing sends limit and cursor (the id of the first item of the page).
        if (query.limit === undefined) return ok({ items: all.map(definitionView), is_paginated: false });
        const start = query.cursor
          ? Math.max(
              0,
              all.findIndex((d) => d.id === query.cursor),
            )
          : 0;
        const page = all.slice(start, start + query.limit);
        return ok({
          items: page.map(definitionView),
          is_paginated: true,
          pagination: { next_cursor: all[start + query.limit]?.id ?? null },
        });
      },
    },
    create: {
      handler: ({ auth, ctx, body }) => created(definitionView(createDefinition(ctx, auth.project.id, scope, body))),
    },
    update: {
      handler: ({ auth, ctx, params, body }) =>
        ok(definitionView(updateDefinition(ctx, auth.project.id, scope, params.permission_id, body))),
    },
    delete: {
      handler: ({ auth, ctx, params }) => {
        deleteDefinition(ctx, auth.project.id, scope, params.permission_id);
        return success();
      },
    },
  };
}

const team = definitionRoutes("team");
const project = definitionRoutes("project");

export const permissionRoutes: RouteTable = {
  listTeamPermissions: {
    handler: ({ auth, ctx, query }) =>
      ok({ items: listTeamPermissionsFor(authed(ctx, auth), query).map(teamPermissionView), is_paginated: false }),
  },
  grantTeamPermission: {
    handler: ({ auth, ctx, params }) => created(teamPermissionView(grantTeamPermissionFor(authed(ctx, auth), params))),
  },
  revokeTeamPermission: {
    handler: ({ auth, ctx, params }) => {
      revokeTeamPermissionFor(authed(ctx, auth), params);
      return success();
    },
  },
  listProjectPermissions: {
    handler: ({ auth, ctx, query }) =>
      ok({
        items: listProjectPermissionsFor(authed(ctx, auth), query).map(projectPermissionView),
        is_paginated: false,
      }),
  },
  grantProjectPermission: {
    handler: ({ auth, ctx, params }) =>
      created(projectPermissionView(grantProjectPermissionFor(authed(ctx, auth), params))),
  },
  revokeProjectPermission: {
    handler: ({ auth, ctx, params }) => {
      revokeProjectPermissionFor(authed(ctx, auth), params);
      return success();
    },
  },
  listTeamPermissionDefinitions: team.list,
  createTeamPermissionDefinition: team.create,
  updateTeamPermissionDefinition: team.update,
  deleteTeamPermissionDefinition: team.delete,
  listProjectPermissionDefinitions: project.list,
  createProjectPermissionDefinition: project.create,
  updateProjectPermissionDefinition: project.update,
  deleteProjectPermissionDefinition: project.delete,
};
