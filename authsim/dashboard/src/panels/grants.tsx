import { useState } from "react";
import { callApi, query, type List, type PermissionDefinition, type ProjectEntry } from "../api.ts";
import { ErrorBox, useAction, useLoad } from "../ui.tsx";

/** A user's direct permissions in the project or in one team: grant from the definitions, revoke. */
export function Grants({ project, scope, userId, teamId }: { project: ProjectEntry; scope: "team" | "project"; userId: string; teamId?: string }) {
  const listQuery = query({ user_id: userId, team_id: teamId, recursive: "false" });
  const grants = useLoad(
    () => callApi<List<{ id: string }>>(project, "server", "GET", `/${scope}-permissions?${listQuery}`).then((r) => r.items.map((p) => p.id)),
    `${scope}:${userId}:${teamId ?? ""}`,
  );
  const definitions = useLoad(
    () => callApi<List<PermissionDefinition>>(project, "admin", "GET", `/${scope}-permission-definitions`).then((r) => r.items.map((d) => d.id)),
    `${scope}-definitions`,
  );
  const [choice, setChoice] = useState("");
  const action = useAction();
  const grantPath = (permission: string) =>
    scope === "team" ? `/team-permissions/${teamId}/${userId}/${encodeURIComponent(permission)}` : `/project-permissions/${userId}/${encodeURIComponent(permission)}`;
  const grant = () =>
    action.run(() => callApi(project, "server", "POST", grantPath(choice), {})).then(() => {
      setChoice("");
      grants.reload();
    });
  const revoke = (permission: string) => action.run(() => callApi(project, "server", "DELETE", grantPath(permission))).then(grants.reload);
  const available = (definitions.data ?? []).filter((d) => !grants.data?.includes(d));
  return (
    <div className="grants">
      <ErrorBox error={grants.error ?? definitions.error ?? action.error} />
      {(grants.data ?? []).map((p) => (
        <span key={p} className="chip">
          {p}
          <button className="small" aria-label={`Revoke ${p}`} onClick={() => void revoke(p)}>
            ×
          </button>
        </span>
      ))}
      {grants.data?.length === 0 && <span className="muted">none </span>}
      <select aria-label={`Grant a ${scope} permission`} value={choice} onChange={(e) => setChoice(e.target.value)}>
        <option value="">grant…</option>
        {available.map((d) => (
          <option key={d}>{d}</option>
        ))}
      </select>
      <button className="small" disabled={!choice || action.busy} onClick={() => void grant()}>
        Grant
      </button>
    </div>
  );
}
