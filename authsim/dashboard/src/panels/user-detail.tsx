import { useState } from "react";
import { callOperation, type ProjectEntry, type User } from "../api.ts";
import { CopyButton, ErrorBox, formatTime, jsonText, parseJson, Section, useAction, useLoad } from "../ui.tsx";
import { ApiKeys } from "./api-keys.tsx";
import { Grants } from "./grants.tsx";
import { PrimaryEmail } from "./primary-email.tsx";

/**
 * One user: the primary email and its verification, metadata, impersonation (a real session minted by the server API),
 * sessions, API keys, permissions.
 */
export function UserDetail({
  project,
  user,
  onChanged,
  onDeleted,
}: {
  project: ProjectEntry;
  user: User;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const [displayName, setDisplayName] = useState(user.display_name ?? "");
  const [clientMeta, setClientMeta] = useState(jsonText(user.client_metadata));
  const [readOnlyMeta, setReadOnlyMeta] = useState(jsonText(user.client_read_only_metadata));
  const [serverMeta, setServerMeta] = useState(jsonText(user.server_metadata));
  const [tokens, setTokens] = useState<{ access_token: string; refresh_token: string } | null>(null);
  const action = useAction();
  const sessions = useLoad(
    () => callOperation(project, "admin", "listSessions", { query: { user_id: user.id } }).then((r) => r.items),
    `sessions:${user.id}`,
  );

  const save = async () => {
    await callOperation(project, "server", "updateUser", {
      params: { user_id: user.id },
      body: {
        display_name: displayName || null,
        client_metadata: parseJson("Client metadata", clientMeta),
        client_read_only_metadata: parseJson("Client read-only metadata", readOnlyMeta),
        server_metadata: parseJson("Server metadata", serverMeta),
      },
    });
    onChanged();
  };
  const impersonate = async () => {
    setTokens(
      await callOperation(project, "server", "createSession", { body: { user_id: user.id, is_impersonation: true } }),
    );
    sessions.reload();
  };
  const revoke = (id: string) =>
    action
      .run(() =>
        callOperation(project, "admin", "deleteSession", { params: { session_id: id }, query: { user_id: user.id } }),
      )
      .then(sessions.reload);
  const remove = async () => {
    if (!confirm(`Delete ${user.primary_email ?? user.id}? This cannot be undone (but a snapshot can restore it).`))
      return;
    await callOperation(project, "server", "deleteUser", { params: { user_id: user.id } });
    onDeleted();
  };

  return (
    <Section
      title={user.primary_email ?? user.display_name ?? "User"}
      actions={
        <button className="danger" onClick={() => void action.run(remove)}>
          Delete user
        </button>
      }
    >
      <p className="muted">
        <code>{user.id}</code> <CopyButton value={user.id} label="Copy id" /> · signed up{" "}
        {formatTime(user.signed_up_at_millis)} · last active {formatTime(user.last_active_at_millis)} ·{" "}
        {user.has_password ? "has a password" : "no password"}
      </p>
      <PrimaryEmail project={project} user={user} onChanged={onChanged} />
      <ErrorBox error={action.error} />
      <form className="stack" onSubmit={action.submit(save)}>
        <label>
          Display name <input value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
        </label>
        <label>
          Client metadata <textarea rows={3} value={clientMeta} onChange={(e) => setClientMeta(e.target.value)} />
        </label>
        <label>
          Client read-only metadata{" "}
          <textarea rows={3} value={readOnlyMeta} onChange={(e) => setReadOnlyMeta(e.target.value)} />
        </label>
        <label>
          Server metadata <textarea rows={3} value={serverMeta} onChange={(e) => setServerMeta(e.target.value)} />
        </label>
        <button type="submit" disabled={action.busy}>
          Save user
        </button>
      </form>

      <h3>Impersonate</h3>
      <button onClick={() => void action.run(impersonate)}>Impersonate (mint a session)</button>
      {tokens && (
        <div className="tokens" data-testid="impersonation-tokens">
          <div>
            Access token <CopyButton value={tokens.access_token} label="Copy access token" />
            <code className="wrap">{tokens.access_token}</code>
          </div>
          <div>
            Refresh token <CopyButton value={tokens.refresh_token} label="Copy refresh token" />
            <code className="wrap">{tokens.refresh_token}</code>
          </div>
        </div>
      )}

      <h3>Sessions</h3>
      <ErrorBox error={sessions.error} />
      <ul className="plain" data-testid="sessions">
        {(sessions.data ?? []).map((s) => (
          <li key={s.id}>
            <code>{s.id.slice(0, 8)}</code> created {formatTime(s.created_at)}
            {s.is_impersonation && <span className="badge">impersonation</span>}{" "}
            <button className="small" onClick={() => void revoke(s.id)}>
              Revoke
            </button>
          </li>
        ))}
        {sessions.data?.length === 0 && <li className="muted">No live sessions.</li>}
      </ul>

      <h3>API keys</h3>
      <ApiKeys project={project} owner={{ type: "user", id: user.id }} />

      <h3>Project permissions</h3>
      <Grants project={project} scope="project" userId={user.id} />
    </Section>
  );
}
