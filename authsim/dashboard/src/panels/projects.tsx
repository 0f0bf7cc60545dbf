import { useState } from "react";
import { envLines } from "../../../src/env-lines.ts";
import { HOSTED_HANDLER, withProject } from "../../../hosted/src/hosted-config.ts";
import { control, type ProjectEntry } from "../api.ts";
import { CopyButton, ErrorBox, Secret, Section, useAction } from "../ui.tsx";

/**
 * Projects: switch, keys with copy buttons, the env lines to paste into an app, a new project with fresh keys, and each
 * project's hosted sign-in (served by the dev server on this origin, `?project_id=` picks the project).
 */
export function ProjectsPanel(props: {
  projects: ProjectEntry[];
  selected: ProjectEntry | null;
  onSelect: (id: string) => void;
  onChanged: () => void;
}) {
  const [name, setName] = useState("");
  const action = useAction();
  const create = async () => {
    const made = await control.call("createProject", { body: { display_name: name } });
    setName("");
    props.onChanged();
    props.onSelect(made.id);
  };
  const selected = props.selected;
  const lines =
    selected?.publishable_client_key && selected.secret_server_key && selected.super_secret_admin_key
      ? envLines(location.origin, {
          id: selected.id,
          publishable: selected.publishable_client_key,
          secret: selected.secret_server_key,
          admin: selected.super_secret_admin_key,
        })
      : [];
  return (
    <>
      <Section title="Projects">
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Id</th>
              <th />
              <th />
            </tr>
          </thead>
          <tbody>
            {props.projects.map((p) => (
              <tr key={p.id} className={p.id === selected?.id ? "selected" : undefined}>
                <td>{p.display_name}</td>
                <td>
                  <code>{p.id}</code>
                </td>
                <td>
                  {p.id === selected?.id ? (
                    <span className="badge">selected</span>
                  ) : (
                    <button onClick={() => props.onSelect(p.id)}>Switch</button>
                  )}
                </td>
                <td>
                  <a href={withProject(`${HOSTED_HANDLER}/sign-in`, p.id)} target="_blank" rel="noreferrer">
                    Open hosted sign-in
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <form className="inline" onSubmit={action.submit(create)}>
          <label>
            New project name <input value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
          <button type="submit" disabled={action.busy}>
            Create project
          </button>
        </form>
        <ErrorBox error={action.error} />
      </Section>
      {selected && (
        <Section title={`Keys of ${selected.display_name}`}>
          <Secret label="project id" value={selected.id} />
          <Secret label="publishable client key" value={selected.publishable_client_key} />
          <Secret label="secret server key" value={selected.secret_server_key} />
          <Secret label="super secret admin key" value={selected.super_secret_admin_key} />
          {lines.length > 0 && (
            <>
              <h3>
                Env lines <CopyButton value={lines.join("\n")} label="Copy env lines" />
              </h3>
              <pre data-testid="env-lines">{lines.join("\n")}</pre>
            </>
          )}
        </Section>
      )}
    </>
  );
}
