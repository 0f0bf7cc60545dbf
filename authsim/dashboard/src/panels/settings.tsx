import { useEffect, useState } from "react";
import { callOperation, type Call, type ProjectEntry } from "../api.ts";
import { DefaultPermissions } from "../settings/permissions.tsx";
import { TrustedDomains } from "../settings/domains.tsx";
import { EmailSettings } from "../settings/email.tsx";
import type { Edit } from "../settings/fields.tsx";
import {
  isObject,
  leafChanges,
  overrideOf,
  plan,
  projectChanges,
  projectPatchOf,
  setPath,
  showValue,
  type JsonObject,
  type ProjectFields,
} from "../settings/model.ts";
import { OAuthProviders } from "../settings/oauth.tsx";
import { Payments, VaultStores } from "../settings/payments.tsx";
import type { ProjectEdit } from "../settings/project-fields.tsx";
import { AuthMethods, TeamsAndKeys } from "../settings/switches.tsx";
import { ErrorBox, errorText, Section, useLoad } from "../ui.tsx";

/**
 * The project's settings over its real config: everything a person changes here is a draft until they read the diff
 * and apply it; applying sends the admin API calls the real dashboard sends, with the project's admin key, and a
 * refusal shows the service's own error (its known-error code and message, or its plain-text 400).
 */
interface Loaded {
  config: JsonObject;
  fields: ProjectFields;
  themes: { id: string; display_name: string }[];
  teamPermissions: string[];
  projectPermissions: string[];
}

async function load(project: ProjectEntry): Promise<Loaded> {
  const [config, current, themes, team, projectWide] = await Promise.all([
    callOperation(project, "admin", "getConfig"),
    callOperation(project, "admin", "getAdminProject"),
    callOperation(project, "admin", "listEmailThemes"),
    callOperation(project, "admin", "listTeamPermissionDefinitions"),
    callOperation(project, "admin", "listProjectPermissionDefinitions"),
  ]);
  const parsed: unknown = JSON.parse(config.config_string);
  const ids = (list: { id: string }[]) => list.map((p) => p.id);
  return {
    config: isObject(parsed) ? parsed : {},
    fields: {
      is_production_mode: current.is_production_mode,
      email_theme: current.config.email_theme,
      team_creator_default_permissions: ids(current.config.team_creator_default_permissions),
      team_member_default_permissions: ids(current.config.team_member_default_permissions),
      user_default_permissions: ids(current.config.user_default_permissions),
    },
    themes: themes.themes,
    teamPermissions: ids(team.items),
    projectPermissions: ids(projectWide.items),
  };
}

export function SettingsPanel({ project }: { project: ProjectEntry }) {
  const loaded = useLoad(() => load(project), project.id);
  const [draft, setDraft] = useState<JsonObject | null>(null);
  const [fieldsDraft, setFieldsDraft] = useState<ProjectFields | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // An apply's notice waits for the project as reloaded after its writes (the page stays busy until then): an edit made
  // against the state from before them would be measured from stale values and could apply nothing.
  const [applied, setApplied] = useState<{ notice: string; before: unknown } | null>(null);
  const data = loaded.data;
  useEffect(() => {
    if (applied === null || (data === applied.before && !loaded.error)) return;
    setNotice(applied.notice);
    setApplied(null);
    setBusy(false);
  }, [applied, data, loaded.error]);
  if (!data) return <ErrorBox error={loaded.error} />;

  const config = draft ?? data.config;
  const fields = fieldsDraft ?? data.fields;
  const touched = () => {
    setNotice(null);
    setRefusal(null);
  };
  const edit: Edit = {
    base: data.config,
    draft: config,
    set: (path, value) => {
      touched();
      setDraft(setPath(config, path, value));
    },
  };
  const projectEdit: ProjectEdit = {
    base: data.fields,
    draft: fields,
    set: (change) => {
      touched();
      setFieldsDraft({ ...fields, ...change });
    },
  };
  const changes = [...leafChanges(data.config, config), ...projectChanges(data.fields, fields)];
  const requests = plan(overrideOf(data.config, config), projectPatchOf(data.fields, fields));
  const discard = () => {
    touched();
    setDraft(null);
    setFieldsDraft(null);
  };
  const apply = async () => {
    touched();
    setBusy(true);
    let done = 0;
    try {
      for (const r of requests) {
        // The plan's bodies are built from the editor's JSON; the service checks them against the same schemas.
        if (r.id === "updateAdminProject")
          await callOperation(project, "admin", r.id, { body: r.body as Call<"updateAdminProject">["body"] });
        else
          await callOperation(project, "admin", r.id, {
            params: { level: "environment" },
            body: { config_override_string: String(r.body.config_override_string) },
          });
        done++;
      }
      setDraft(null);
      setFieldsDraft(null);
      const appliedNotice = `Applied ${changes.length} change${changes.length === 1 ? "" : "s"}.`;
      if (done > 0) setApplied({ notice: appliedNotice, before: data });
      else {
        setNotice(appliedNotice);
        setBusy(false);
      }
    } catch (e) {
      // Each request is one transaction on the service: a refused one changed nothing, earlier ones stay applied.
      setRefusal(
        `${done > 0 ? `${requests[done - 1]!.method} ${requests[done - 1]!.path} was applied; then ` : ""}${requests[done]!.method} ${requests[done]!.path} was refused: ${errorText(e)}`,
      );
      setBusy(false);
    } finally {
      if (done > 0) loaded.reload();
    }
  };

  return (
    <div className="settings">
      <Section
        title={`Settings of ${project.display_name}`}
        actions={
          <button
            onClick={() => {
              discard();
              loaded.reload();
            }}
          >
            Reload
          </button>
        }
      >
        <p className="muted">
          Edit below; nothing changes until you apply the diff. It is written through the admin API (
          <code>PATCH /api/v1/internal/config/override/environment</code>,{" "}
          <code>PATCH /api/v1/internal/projects/current</code>) with this project's admin key, as the real dashboard
          writes it.
        </p>
        <ErrorBox error={loaded.error} />
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        {refusal && (
          <p role="alert" className="error" data-testid="settings-refusal">
            {refusal}
          </p>
        )}
        {changes.length === 0 ? (
          <p className="muted" data-testid="settings-diff-empty">
            No pending changes.
          </p>
        ) : (
          <div data-testid="settings-diff">
            <h3>
              Pending changes <span className="badge">{changes.length}</span>
            </h3>
            <ul className="diff">
              {changes.map((c) => (
                <li key={c.key}>
                  <code className="key">{c.key}</code> <del>{showValue(c.before)}</del> →{" "}
                  <ins>{showValue(c.after)}</ins>
                </li>
              ))}
            </ul>
            <details>
              <summary>The requests it sends</summary>
              {requests.map((r) => (
                <pre
                  key={r.path}
                >{`${r.method} /api/v1${r.path}\n${JSON.stringify(r.path.endsWith("environment") ? JSON.parse(r.body.config_override_string as string) : r.body, null, 2)}`}</pre>
              ))}
            </details>
            <div className="actions">
              <button className="active" disabled={busy} onClick={() => void apply()}>
                Apply changes
              </button>
              <button disabled={busy} onClick={discard}>
                Discard
              </button>
            </div>
          </div>
        )}
      </Section>
      <div className="settings-grid">
        <AuthMethods edit={edit} />
        <TeamsAndKeys edit={edit} />
        <OAuthProviders edit={edit} />
        <TrustedDomains edit={edit} project={projectEdit} />
        <EmailSettings edit={edit} project={projectEdit} themes={data.themes} />
        <DefaultPermissions project={projectEdit} team={data.teamPermissions} projectWide={data.projectPermissions} />
        <Payments edit={edit} />
        <VaultStores edit={edit} />
      </div>
    </div>
  );
}
