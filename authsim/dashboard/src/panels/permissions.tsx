import { useState } from "react";
import { callOperation, type ProjectEntry } from "../api.ts";
import { ErrorBox, Section, useAction, useLoad } from "../ui.tsx";

/** The definition operations of each scope (the team and project ones share their shapes). */
export const definitionOperations = {
  team: {
    list: "listTeamPermissionDefinitions",
    create: "createTeamPermissionDefinition",
    delete: "deleteTeamPermissionDefinition",
  },
  project: {
    list: "listProjectPermissionDefinitions",
    create: "createProjectPermissionDefinition",
    delete: "deleteProjectPermissionDefinition",
  },
} as const;

/** Permission definitions of both scopes (admin API): list with containments, create, delete. */
export function PermissionsPanel({ project }: { project: ProjectEntry }) {
  return (
    <>
      <Definitions project={project} scope="team" />
      <Definitions project={project} scope="project" />
    </>
  );
}

const splitIds = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

function Definitions({ project, scope }: { project: ProjectEntry; scope: "team" | "project" }) {
  const ids = definitionOperations[scope];
  const definitions = useLoad(() => callOperation(project, "admin", ids.list).then((r) => r.items), scope);
  const [id, setId] = useState("");
  const [description, setDescription] = useState("");
  const [contains, setContains] = useState("");
  const action = useAction();
  const create = async () => {
    await callOperation(project, "admin", ids.create, {
      body: { id, description: description || undefined, contained_permission_ids: splitIds(contains) },
    });
    setId("");
    setDescription("");
    setContains("");
    definitions.reload();
  };
  const remove = (permission: string) =>
    action
      .run(() => callOperation(project, "admin", ids.delete, { params: { permission_id: permission } }))
      .then(definitions.reload);
  return (
    <Section title={`${scope === "team" ? "Team" : "Project"} permission definitions`}>
      <ErrorBox error={definitions.error ?? action.error} />
      <table>
        <thead>
          <tr>
            <th>Id</th>
            <th>Description</th>
            <th>Contains</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(definitions.data ?? []).map((d) => (
            <tr key={d.id}>
              <td>
                <code>{d.id}</code>
              </td>
              <td>{d.description}</td>
              <td>
                {d.contained_permission_ids.map((c) => (
                  <span key={c} className="chip">
                    {c}
                  </span>
                ))}
              </td>
              <td>
                {!d.id.startsWith("$") && (
                  <button className="small" onClick={() => void remove(d.id)}>
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="inline" onSubmit={action.submit(create)}>
        <input
          aria-label={`New ${scope} permission id`}
          placeholder="id (a-z 0-9 _ :)"
          value={id}
          onChange={(e) => setId(e.target.value)}
          required
        />
        <input
          aria-label={`New ${scope} permission description`}
          placeholder="description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <input
          aria-label={`New ${scope} permission contains`}
          placeholder="contains (comma-separated ids)"
          value={contains}
          onChange={(e) => setContains(e.target.value)}
        />
        <button type="submit" disabled={action.busy}>
          Create definition
        </button>
      </form>
    </Section>
  );
}
