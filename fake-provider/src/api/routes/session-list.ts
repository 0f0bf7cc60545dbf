import { ok, success, type RouteTable } from "./define.ts";
import { deleteSessionById, liveSessionsOf } from "../../domain/ops/sign-in/session-list.ts";
import { sessionListView } from "../../domain/views/sessions.ts";
import { targetUser } from "../../domain/ops/access.ts";
import { refusal } from "../../domain/errors/refusals.ts";

/** GET /auth/sessions?user_id= and DELETE /auth/sessions/{id} (protocol.md §5.7, §6.2). */
export const sessionListRoutes: RouteTable = {
  listSessions: {
    handler: ({ auth, ctx, query }) => {
      // A server asking about a user id nobody has gets an empty list, as the real listing reads sessions by user id alone.
      const userId =
        auth.type === "client" || query.user_id === "me"
          ? targetUser(auth, ctx, query.user_id, "sessions", () => refusal("clientOwnSessionsOnly")).id
          : query.user_id;
      const sessions = liveSessionsOf(ctx, auth.project.id, userId, { includeImpersonation: auth.type === "admin" });
      return ok({ items: sessions.map((s) => sessionListView(s, auth.sessionId)), is_paginated: false });
    },
  },
  deleteSession: {
    handler: ({ auth, ctx, params }) => {
      deleteSessionById({ ...ctx, auth: auth }, params.session_id);
      return success();
    },
  },
};
