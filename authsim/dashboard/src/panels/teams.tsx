import { useState } from "react";
import { callOperation, type ProjectEntry, type Team } from "../api.ts";
import { ErrorBox, formatTime, Section, useAction, useLoad } from "../ui.tsx";
import { ApiKeys } from "./api-keys.tsx";
import { Grants } from "./grants.tsx";

/** Teams: create, delete, members (add, remove, their team permissions) and team API keys. */
export function TeamsPanel({ project }: { project: ProjectEntry }) {
  const teams = useLoad(() => callOperation(project, "server", "listTeams").then((r) => r.items), project.id);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [name, setName] = useState("");
  const action = useAction();
  const create = async () => {
    const team = await callOperation(project, "server", "createTeam", { body: { display_name: name } });
    setName("");
    setSelectedId(team.id);
    teams.reload();
  };
  const selected = teams.data?.find((t) => t.id === selectedId) ?? null;
  return (
    <div className="split">
      <Section title="Teams" actions={<button onClick={teams.reload}>Refresh</button>}>
        <ErrorBox error={teams.error ?? action.error} />
        <table data-testid="teams">
          <thead>
            <tr>
              <th>Name</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {(teams.data ?? []).map((t) => (
              <tr
                key={t.id}
                className={t.id === selectedId ? "selected clickable" : "clickable"}
                onClick={() => setSelectedId(t.id)}
              >
                <td>{t.display_name}</td>
                <td>{formatTime(t.created_at_millis)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <form className="inline" onSubmit={action.submit(create)}>
          <label>
            New team <input value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
          <button type="submit" disabled={action.busy}>
            Create team
          </button>
        </form>
      </Section>
      {selected && (
        <TeamDetail
          key={selected.id}
          project={project}
          team={selected}
          onDeleted={() => {
            setSelectedId(null);
            teams.reload();
          }}
        />
      )}
    </div>
  );
}

function TeamDetail({ project, team, onDeleted }: { project: ProjectEntry; team: Team; onDeleted: () => void }) {
  const members = useLoad(
    () =>
      callOperation(project, "server", "listTeamMemberProfiles", { query: { team_id: team.id } }).then((r) => r.items),
    team.id,
  );
  const users = useLoad(
    () => callOperation(project, "server", "listUsers", { query: { limit: 500 } }).then((r) => r.items),
    "users",
  );
  const [newMember, setNewMember] = useState("");
  const action = useAction();
  const memberIds = new Set((members.data ?? []).map((m) => m.user_id));
  const add = () =>
    action
      .run(() =>
        callOperation(project, "server", "addTeamMember", { params: { team_id: team.id, user_id: newMember } }),
      )
      .then(members.reload);
  const remove = (userId: string) =>
    action
      .run(() =>
        callOperation(project, "server", "removeTeamMember", { params: { team_id: team.id, user_id: userId } }),
      )
      .then(members.reload);
  const deleteTeam = async () => {
    if (!confirm(`Delete the team ${team.display_name}?`)) return;
    await callOperation(project, "server", "deleteTeam", { params: { team_id: team.id } });
    onDeleted();
  };
  return (
    <Section
      title={team.display_name}
      actions={
        <button className="danger" onClick={() => void action.run(deleteTeam)}>
          Delete team
        </button>
      }
    >
      <p className="muted">
        <code>{team.id}</code>
      </p>
      <ErrorBox error={members.error ?? action.error} />
      <h3>Members</h3>
      <table data-testid="members">
        <tbody>
          {(members.data ?? []).map((m) => (
            <tr key={m.user_id}>
              <td>
                {m.user?.primary_email ?? m.display_name ?? m.user_id}
                <Grants project={project} scope="team" userId={m.user_id} teamId={team.id} />
              </td>
              <td>
                <button className="small" onClick={() => void remove(m.user_id)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="inline">
        <select aria-label="User to add" value={newMember} onChange={(e) => setNewMember(e.target.value)}>
          <option value="">add a member…</option>
          {(users.data ?? [])
            .filter((u) => !memberIds.has(u.id))
            .map((u) => (
              <option key={u.id} value={u.id}>
                {u.primary_email ?? u.display_name ?? u.id}
              </option>
            ))}
        </select>
        <button className="small" disabled={!newMember || action.busy} onClick={() => void add()}>
          Add member
        </button>
      </div>
      <h3>Team API keys</h3>
      <ApiKeys project={project} owner={{ type: "team", id: team.id }} />
    </Section>
  );
}
