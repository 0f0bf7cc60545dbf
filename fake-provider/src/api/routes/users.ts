import { z } from "zod";
import { clientUserUpdate, paginatedEnvelope, serverUser, serverUserCreate, serverUserUpdate, userListQuery, uuidV4 } from "@authsim/sdk/contract";
import { knownError, StatusError } from "../../domain/errors/known-error.ts";
import { assertClientProfileImage } from "../../domain/ops/profile-image.ts";
import { createUser, deleteUser, listUsers, requireUser, updateUser } from "../../domain/ops/users.ts";
import type { Auth } from "../auth/parse-auth.ts";
import type { OpContext } from "../../domain/ops/context.ts";
import type { UserRecord } from "../../domain/store/records.ts";
import { clientUserView, serverUserView } from "../../domain/views/users.ts";
import { created, noBody, ok, route, success, type AnyRouteSpec } from "./define.ts";

/** Users (protocol.md §5.2, §6.3). A client sees the client view of itself; server and admin see server views. */
const userParams = z.strictObject({ user_id: uuidV4 });

function me(auth: Auth | null): UserRecord {
  if (!auth?.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
  return auth.user;
}

const view = (auth: Auth | null, ctx: OpContext, user: UserRecord) =>
  auth?.type === "client" ? clientUserView(ctx.tables, user) : serverUserView(ctx.tables, user);

export const userRoutes: Record<string, AnyRouteSpec> = {
  getMe: route({ handler: ({ auth, ctx }) => ok(view(auth, ctx, me(auth))) }),
  updateMe: route({
    body: (auth) => (auth?.type === "client" ? clientUserUpdate : serverUserUpdate),
    handler: async ({ auth, ctx, body }) => {
      const user = me(auth);
      if (auth!.type === "client") assertClientProfileImage(body.profile_image_url);
      return ok(view(auth, ctx, await updateUser(ctx, user, body)));
    },
  }),
  deleteMe: route({
    body: noBody,
    handler: ({ auth, ctx }) => {
      const user = me(auth);
      if (auth!.type === "client" && !auth!.project.config.client_user_deletion_enabled) {
        throw new StatusError(400, "Client user deletion is not enabled for this project");
      }
      deleteUser(ctx, user);
      return success();
    },
  }),
  listUsers: route({
    query: userListQuery,
    handler: ({ auth, ctx, query }) => {
      const page = listUsers(ctx, auth!.project.id, query);
      const body: z.infer<ReturnType<typeof paginatedEnvelope<typeof serverUser>>> = {
        items: page.items.map((u) => serverUserView(ctx.tables, u)),
        is_paginated: true,
        pagination: { next_cursor: page.nextCursor },
      };
      return ok(body);
    },
  }),
  createUser: route({
    body: serverUserCreate,
    handler: async ({ auth, ctx, body }) => created(serverUserView(ctx.tables, await createUser(ctx, auth!.project.id, body))),
  }),
  // Upstream's user CRUD shares one query schema: the list's keys are accepted (and ignored) by the single-user verbs.
  getUser: route({
    params: userParams,
    query: userListQuery,
    handler: ({ auth, ctx, params }) => ok(serverUserView(ctx.tables, requireUser(ctx, auth!.project.id, params.user_id))),
  }),
  updateUser: route({
    params: userParams,
    query: userListQuery,
    body: serverUserUpdate,
    handler: async ({ auth, ctx, params, body }) => {
      const user = requireUser(ctx, auth!.project.id, params.user_id);
      return ok(serverUserView(ctx.tables, await updateUser(ctx, user, body)));
    },
  }),
  deleteUser: route({
    params: userParams,
    query: userListQuery,
    body: noBody,
    handler: ({ auth, ctx, params }) => {
      deleteUser(ctx, requireUser(ctx, auth!.project.id, params.user_id));
      return success();
    },
  }),
};
