import { ok, success, type RouteTable } from "./define.ts";
import { deleteSessionById, liveSessionsOf } from "../../domain/ops/sign-in/session-list.ts";
import { sessionListView } from "../../domain/views/sessions.ts";
import { targetUser } from "../../domain/ops/access.ts";
import { refusal } from "../../domain/errors/refusals.ts";

/** GET /auth/sessions?user_id= and DELETE /auth/sessions/{id} (protocol.md §5.7, §6.2). */
export const sessionListRoutes: RouteTable = {
  listSessions: {
    handler: ({ auth, ctx, query }) => {
      const user = targetUser(auth, ctx, query.user_id, "sessions", () => refusal("clientOwnSessionsOnly"));
      const sessions = liveSessionsOf(ctx, user.id, { includeImpersonation: auth.type === "admin" });
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
