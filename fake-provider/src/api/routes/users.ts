import { z } from "zod";
import { paginatedEnvelope, serverUser } from "@authsim/sdk/contract";
import { currentUser, deleteCurrentUser, updateCurrentUser } from "../../domain/ops/users/current-user.ts";
import { createUser, deleteUser, listUsers, requireUser, updateUser } from "../../domain/ops/users/users.ts";
import type { Auth } from "../auth/parse-auth.ts";
import type { OpContext } from "../../domain/ops/context.ts";
import type { UserRecord } from "../../domain/store/records.ts";
import { clientUserView, serverUserView } from "../../domain/views/users.ts";
import { created, ok, success, type RouteTable } from "./define.ts";

/** Users (protocol.md §5.2, §6.3). A client sees the client view of itself; server and admin see server views. */
const view = (auth: Auth | null, ctx: OpContext, user: UserRecord) =>
  auth?.type === "client" ? clientUserView(ctx.tables, user) : serverUserView(ctx.tables, user);

export const userRoutes: RouteTable = {
  getMe: { handler: ({ auth, ctx }) => ok(view(auth, ctx, currentUser(auth))) },
  updateMe: {
    handler: async ({ auth, ctx, body }) => ok(view(auth, ctx, await updateCurrentUser({ ...ctx, auth }, body))),
  },
  deleteMe: {
    handler: ({ auth, ctx }) => {
      deleteCurrentUser({ ...ctx, auth });
      return success();
    },
  },
  listUsers: {
    handler: ({ auth, ctx, query }) => {
      const page = listUsers(ctx, auth.project.id, query);
      const body: z.infer<ReturnType<typeof paginatedEnvelope<typeof serverUser>>> = {
        items: page.items.map((u) => serverUserView(ctx.tables, u)),
        is_paginated: true,
        pagination: { next_cursor: page.nextCursor },
      };
      return ok(body);
    },
  },
  createUser: {
    handler: async ({ auth, ctx, body }) =>
      created(serverUserView(ctx.tables, await createUser(ctx, auth.project.id, body))),
  },
  // Upstream's user CRUD shares one query schema: the list's keys are accepted (and ignored) by the single-user verbs.
  getUser: {
    handler: ({ auth, ctx, params }) =>
      ok(serverUserView(ctx.tables, requireUser(ctx, auth.project.id, params.user_id))),
  },
  updateUser: {
    handler: async ({ auth, ctx, params, body }) => {
      const user = requireUser(ctx, auth.project.id, params.user_id);
      return ok(serverUserView(ctx.tables, await updateUser(ctx, user, body)));
    },
  },
  deleteUser: {
    handler: ({ auth, ctx, params }) => {
      deleteUser(ctx, requireUser(ctx, auth.project.id, params.user_id));
      return success();
    },
  },
};
