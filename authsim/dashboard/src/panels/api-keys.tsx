import { useState } from "react";
import { callApi, query, type ApiKey, type List, type ProjectEntry } from "../api.ts";
import { CopyButton, ErrorBox, formatTime, useAction, useLoad } from "../ui.tsx";

/** The API keys of one user or team: list, create (the full value is shown once), revoke. */
export function ApiKeys({ project, owner }: { project: ProjectEntry; owner: { type: "user" | "team"; id: string } }) {
  const path = `/${owner.type}-api-keys`;
  const ownerQuery = query({ [`${owner.type}_id`]: owner.id });
  const keys = useLoad(() => callApi<List<ApiKey>>(project, "server", "GET", `${path}?${ownerQuery}`).then((r) => r.items), `${owner.type}:${owner.id}`);
  const [description, setDescription] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const action = useAction();
  const create = async () => {
    const key = await callApi<ApiKey>(project, "server", "POST", path, { [`${owner.type}_id`]: owner.id, description, expires_at_millis: null });
    setCreated(typeof key.value === "string" ? key.value : null);
    setDescription("");
    keys.reload();
  };
  const revoke = (id: string) => action.run(() => callApi(project, "server", "PATCH", `${path}/${id}?${ownerQuery}`, { revoked: true })).then(keys.reload);
  return (
    <div>
      <ErrorBox error={keys.error ?? action.error} />
      <ul className="plain">
        {(keys.data ?? []).map((k) => (
          <li key={k.id}>
            <strong>{k.description || "(no description)"}</strong> <code>…{typeof k.value === "string" ? k.value.slice(-4) : k.value.last_four}</code>{" "}
            <span className="muted">created {formatTime(k.created_at_millis)}</span>
            {k.manually_revoked_at_millis !== undefined ? (
              <span className="badge bad">revoked</span>
            ) : (
              <button className="small" onClick={() => void revoke(k.id)}>
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
      {created && (
        <p className="notice">
          New key (shown once): <code>{created}</code> <CopyButton value={created} />
        </p>
      )}
      <form
        className="inline"
        onSubmit={action.submit(create)}
      >
        <input aria-label={`New ${owner.type} API key description`} placeholder="description" value={description} onChange={(e) => setDescription(e.target.value)} />
        <button type="submit" className="small" disabled={action.busy}>
          Create API key
        </button>
      </form>
    </div>
  );
}
