import { useActiveSessions, type ActiveSessionOf } from "../hooks/use-user-data.ts";
import type { CurrentUser } from "@authsim/sdk";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";

function SessionRow({ user, session }: { user: CurrentUser; session: ActiveSessionOf }) {
  const revoke = useAsyncAction(() => user.revokeSession(session.id));
  const where = session.geoInfo
    ? Object.values(session.geoInfo)
        .filter((v) => typeof v === "string" && v)
        .join(", ")
    : "";
  return (
    <li>
      Signed in {session.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC
      {where ? ` from ${where}` : ""}
      {session.isCurrentSession ? " (this session)" : ""}
      {session.isImpersonation ? " (impersonation)" : ""}{" "}
      {!session.isCurrentSession ? (
        <button type="button" onClick={() => void revoke.run()} disabled={revoke.pending}>
          Revoke
        </button>
      ) : null}
      <ErrorMessage error={revoke.error} />
    </li>
  );
}

/** The user's sessions; any but the current one can be ended (the current one ends by signing out). */
export function SessionsSection({ user }: { user: CurrentUser }) {
  const sessions = useActiveSessions();
  return (
    <section className="authsim-section" aria-labelledby="authsim-sessions">
      <h2 id="authsim-sessions">Active sessions</h2>
      <ul aria-label="Active sessions">
        {sessions.map((session) => (
          <SessionRow key={session.id} user={user} session={session} />
        ))}
      </ul>
    </section>
  );
}
