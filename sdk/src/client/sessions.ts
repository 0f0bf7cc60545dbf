import { type GeoInfo, type SessionJson } from "../contract/areas/sessions.ts";
import { asClient, type CallAuth } from "../transport/operation-call.ts";
import type { AppContext } from "./app-context.ts";

/** A user's sessions (spec §3 "Session"; sdk-surface.md §10; protocol.md §5.7). */
export interface ActiveSession {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | undefined;
  readonly isImpersonation: boolean;
  readonly isCurrentSession: boolean;
  /** Where the end user was, when the provider knew (forwarding headers). */
  readonly geoInfo?: GeoInfo;
}

export function activeSessionFromJson(json: SessionJson): ActiveSession {
  return {
    id: json.id,
    userId: json.user_id,
    createdAt: new Date(json.created_at),
    lastUsedAt: json.last_used_at !== undefined ? new Date(json.last_used_at) : undefined,
    isImpersonation: json.is_impersonation,
    isCurrentSession: json.is_current_session ?? false,
    ...(json.last_used_at_end_user_ip_info ? { geoInfo: json.last_used_at_end_user_ip_info } : {}),
  };
}

/** GET /auth/sessions?user_id= ("me" with the session for a client). */
export async function getActiveSessions(ctx: AppContext, auth: CallAuth, userId: string): Promise<ActiveSession[]> {
  const page = await asClient.json(ctx.transport, "listSessions", { ...auth, query: { user_id: userId } });
  return page.items.map(activeSessionFromJson);
}

/** DELETE /auth/sessions/{id}; the current session refuses (CANNOT_DELETE_CURRENT_SESSION): sign out instead. */
export async function revokeSession(
  ctx: AppContext,
  auth: CallAuth,
  sessionId: string,
  asUser: "me" | null,
): Promise<void> {
  await asClient.send(ctx.transport, "deleteSession", {
    ...auth,
    params: { session_id: sessionId },
    query: asUser ? { user_id: asUser } : {},
  });
}
