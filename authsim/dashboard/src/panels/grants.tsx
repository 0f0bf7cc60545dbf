import { useState } from "react";
import { callOperation, type ProjectEntry } from "../api.ts";
import { definitionOperations } from "./permissions.tsx";
import { ErrorBox, useAction, useLoad } from "../ui.tsx";

/** A user's direct permissions in the project or in one team: grant from the definitions, revoke. */
export function Grants({
  project,
  scope,
  userId,
  teamId,
}: {
  project: ProjectEntry;
  scope: "team" | "project";
  userId: string;
  teamId?: string;
}) {
  const grants = useLoad(
    () =>
      (scope === "team"
        ? callOperation(project, "server", "listTeamPermissions", {
            query: { user_id: userId, team_id: teamId, recursive: "false" },
          })
        : callOperation(project, "server", "listProjectPermissions", { query: { user_id: userId, recursive: "false" } })
      ).then((r) => r.items.map((p) => p.id)),
    `${scope}:${userId}:${teamId ?? ""}`,
  );
  const definitions = useLoad(
    () => callOperation(project, "admin", definitionOperations[scope].list).then((r) => r.items.map((d) => d.id)),
    `${scope}-definitions`,
  );
  const [choice, setChoice] = useState("");
  const action = useAction();
  const grantOrRevoke = (grant: boolean, permission: string) =>
    scope === "team"
      ? callOperation(project, "server", grant ? "grantTeamPermission" : "revokeTeamPermission", {
          params: { team_id: teamId!, user_id: userId, permission_id: permission },
        })
      : callOperation(project, "server", grant ? "grantProjectPermission" : "revokeProjectPermission", {
          params: { user_id: userId, permission_id: permission },
        });
  const grant = () =>
    action
      .run(() => grantOrRevoke(true, choice))
      .then(() => {
        setChoice("");
        grants.reload();
      });
  const revoke = (permission: string) => action.run(() => grantOrRevoke(false, permission)).then(grants.reload);
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
