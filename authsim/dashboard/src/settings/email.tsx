import { Section } from "../ui.tsx";
import { getPath } from "./model.ts";
import { Text, type Edit } from "./fields.tsx";
import type { ProjectEdit } from "./project-fields.tsx";

const SERVER = "emails.server";

/**
 * The email server (config `emails.server`: the service's shared one, or the app's own SMTP server) and the theme the
 * project's emails are rendered in (the project's `email_theme`, one of its themes).
 */
export function EmailSettings({
  edit,
  project,
  themes,
}: {
  edit: Edit;
  project: ProjectEdit;
  themes: { id: string; display_name: string }[];
}) {
  const shared = getPath(edit.draft, `${SERVER}.isShared`) !== false;
  const setShared = (on: boolean) =>
    edit.set(
      SERVER,
      on
        ? { isShared: true, provider: "smtp" }
        : {
            isShared: false,
            provider: "smtp",
            host: "",
            port: 587,
            username: "",
            password: "",
            senderName: "",
            senderEmail: "",
          },
    );
  const baseServer = getPath(edit.base, `${SERVER}.isShared`) !== false;
  return (
    <Section title="Email">
      <div className="stack">
        <label className={`check${shared !== baseServer ? " changed" : ""}`}>
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} />
          <span>Shared email server</span>
        </label>
      </div>
      {!shared && (
        <div className="entry-fields">
          <Text edit={edit} path={`${SERVER}.host`} label="SMTP host" />
          <Text edit={edit} path={`${SERVER}.port`} label="SMTP port" type="number" />
          <Text edit={edit} path={`${SERVER}.username`} label="SMTP username" />
          <Text edit={edit} path={`${SERVER}.password`} label="SMTP password" type="password" />
          <Text edit={edit} path={`${SERVER}.senderName`} label="Sender name" />
          <Text edit={edit} path={`${SERVER}.senderEmail`} label="Sender email" />
        </div>
      )}
      <div className="entry-fields">
        <label className={`field${project.draft.email_theme !== project.base.email_theme ? " changed" : ""}`}>
          <span>Email theme</span>
          <select value={project.draft.email_theme} onChange={(e) => project.set({ email_theme: e.target.value })}>
            {themes.map((t) => (
              <option key={t.id} value={t.id}>
                {t.display_name}
              </option>
            ))}
            {!themes.some((t) => t.id === project.draft.email_theme) && (
              <option value={project.draft.email_theme}>{project.draft.email_theme}</option>
            )}
          </select>
        </label>
      </div>
    </Section>
  );
}
