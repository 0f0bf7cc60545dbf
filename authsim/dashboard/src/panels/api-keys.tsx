import { useState } from "react";
import { callOperation, type ProjectEntry } from "../api.ts";
import { CopyButton, ErrorBox, formatTime, useAction, useLoad } from "../ui.tsx";

/** The API keys of one user or team: list, create (the full value is shown once), revoke. */
export function ApiKeys({ project, owner }: { project: ProjectEntry; owner: { type: "user" | "team"; id: string } }) {
  const isUser = owner.type === "user";
  const keys = useLoad(
    () =>
      (isUser
        ? callOperation(project, "server", "listUserApiKeys", { query: { user_id: owner.id } })
        : callOperation(project, "server", "listTeamApiKeys", { query: { team_id: owner.id } })
      ).then((r) => r.items),
    `${owner.type}:${owner.id}`,
  );
  const [description, setDescription] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const action = useAction();
  const create = async () => {
    const body = { description, expires_at_millis: null };
    const key = isUser
      ? await callOperation(project, "server", "createUserApiKey", { body: { ...body, user_id: owner.id } })
      : await callOperation(project, "server", "createTeamApiKey", { body: { ...body, team_id: owner.id } });
    setCreated(typeof key.value === "string" ? key.value : null);
    setDescription("");
    keys.reload();
  };
  const revoke = (id: string) =>
    action
      .run(() =>
        isUser
          ? callOperation(project, "server", "updateUserApiKey", {
              params: { api_key_id: id },
              query: { user_id: owner.id },
              body: { revoked: true },
            })
          : callOperation(project, "server", "updateTeamApiKey", {
              params: { api_key_id: id },
              query: { team_id: owner.id },
              body: { revoked: true },
            }),
      )
      .then(keys.reload);
  return (
    <div>
      <ErrorBox error={keys.error ?? action.error} />
      <ul className="plain">
        {(keys.data ?? []).map((k) => (
          <li key={k.id}>
            <strong>{k.description || "(no description)"}</strong> <code>…{k.value.last_four}</code>{" "}
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
      <form className="inline" onSubmit={action.submit(create)}>
        <input
          aria-label={`New ${owner.type} API key description`}
          placeholder="description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <button type="submit" className="small" disabled={action.busy}>
          Create API key
        </button>
      </form>
    </div>
  );
}
