import type { SessionJson } from "@authsim/sdk/contract";
import type { SessionRecord } from "../store/records.ts";

/** protocol.md §5.7: `is_current_session` compares with the session of the request's access token. */
export function sessionListView(session: SessionRecord, currentSessionId: string | null): SessionJson {
  return {
    id: session.id,
    user_id: session.userId,
    created_at: session.createdAtMillis,
    last_used_at: session.lastUsedAtMillis,
    is_impersonation: session.isImpersonation,
    is_current_session: session.id === currentSessionId,
    ...(session.endUserIpInfo ? { last_used_at_end_user_ip_info: session.endUserIpInfo } : {}),
  };
}
