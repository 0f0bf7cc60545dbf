import { useState } from "react";
import { callOperation, type ProjectEntry } from "../api.ts";
import { ErrorBox, formatTime, Section, useAction, useLoad } from "../ui.tsx";
import { UserDetail } from "./user-detail.tsx";

/** Users of the project: search, create (with a password), and a detail pane for the selected one. */
export function UsersPanel({ project }: { project: ProjectEntry }) {
  const [search, setSearch] = useState("");
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const users = useLoad(
    () =>
      callOperation(project, "server", "listUsers", {
        query: { query: search || undefined, limit: 200, include_anonymous: "true" },
      }).then((r) => r.items),
    `${project.id}:${search}`,
  );
  const selected = users.data?.find((u) => u.id === selectedId) ?? null;
  return (
    <div className="split">
      <div>
        <Section title="Users" actions={<button onClick={users.reload}>Refresh</button>}>
          <label className="search">
            Search{" "}
            <input
              type="search"
              placeholder="email or name"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </label>
          <ErrorBox error={users.error} />
          <table data-testid="users">
            <thead>
              <tr>
                <th>Email</th>
                <th>Name</th>
                <th>Signed up</th>
              </tr>
            </thead>
            <tbody>
              {(users.data ?? []).map((u) => (
                <tr
                  key={u.id}
                  className={u.id === selectedId ? "selected clickable" : "clickable"}
                  onClick={() => setSelectedId(u.id)}
                >
                  <td>
                    {u.primary_email ?? <span className="muted">{u.is_anonymous ? "anonymous" : "no email"}</span>}
                    {u.primary_email_verified && <span className="badge">verified</span>}
                  </td>
                  <td>{u.display_name}</td>
                  <td>{formatTime(u.signed_up_at_millis)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {users.data?.length === 0 && <p className="muted">No users{search ? " match" : " yet"}.</p>}
        </Section>
        <CreateUser
          project={project}
          onCreated={(id) => {
            setSelectedId(id);
            users.reload();
          }}
        />
      </div>
      {selected && (
        <UserDetail
          key={selected.id}
          project={project}
          user={selected}
          onChanged={users.reload}
          onDeleted={() => {
            setSelectedId(null);
            users.reload();
          }}
        />
      )}
    </div>
  );
}

function CreateUser({ project, onCreated }: { project: ProjectEntry; onCreated: (id: string) => void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [name, setName] = useState("");
  const [verified, setVerified] = useState(false);
  const action = useAction();
  const create = async () => {
    const body = {
      primary_email: email || undefined,
      primary_email_verified: email ? verified : undefined,
      primary_email_auth_enabled: email ? true : undefined,
      password: password || undefined,
      display_name: name || undefined,
    };
    const user = await callOperation(project, "server", "createUser", { body });
    setEmail("");
    setPassword("");
    setName("");
    onCreated(user.id);
  };
  return (
    <Section title="Create user">
      <form className="stack" onSubmit={action.submit(create)}>
        <label>
          Email <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Password{" "}
          <input type="text" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="off" />
        </label>
        <label>
          Display name <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="check">
          <input type="checkbox" checked={verified} onChange={(e) => setVerified(e.target.checked)} /> Email verified
        </label>
        <button type="submit" disabled={action.busy}>
          Create user
        </button>
        <ErrorBox error={action.error} />
      </form>
    </Section>
  );
}
