import { knownError } from "../../errors/known-error.ts";
import type { SessionRecord } from "../../store/records.ts";
import type { AuthedContext, OpContext } from "../context.ts";
import { isSessionLive } from "./sessions.ts";
import { refusal } from "../../errors/refusals.ts";

/** A user's sessions as a list, and ending one by id (protocol.md §5.7; spec §3 "Session"). */

/**
 * The user's live sessions, newest first. Impersonation sessions are listed to admins only, as upstream does: the
 * impersonated user and server code see the sessions the user opened themselves.
 */
export function liveSessionsOf(
  ctx: OpContext,
  projectId: string,
  userId: string,
  options: { includeImpersonation: boolean },
): SessionRecord[] {
  return [...ctx.tables.sessions.values()]
    .filter(
      (s) =>
        s.projectId === projectId &&
        s.userId === userId &&
        isSessionLive(s, ctx.now) &&
        (options.includeImpersonation || !s.isImpersonation),
    )
    .sort((a, b) => b.createdAtMillis - a.createdAtMillis || (a.id < b.id ? 1 : -1));
}

/**
 * DELETE /auth/sessions/{id}: another of the user's sessions ends. The session of the request's own access token
 * cannot (CANNOT_DELETE_CURRENT_SESSION; sign-out is DELETE /auth/sessions/current). A client sees only its own
 * user's sessions: any other id is "not found".
 */
export function deleteSessionById(ctx: AuthedContext, sessionId: string): void {
  const { auth } = ctx;
  const session = ctx.tables.sessions.get(sessionId);
  const visible =
    session && session.projectId === auth.project.id && (auth.type !== "client" || session.userId === auth.user?.id);
  if (!session || !visible) throw refusal("sessionNotFound");
  if (auth.sessionId === session.id) throw knownError("CANNOT_DELETE_CURRENT_SESSION");
  ctx.tables.sessions.delete(session.id);
}
