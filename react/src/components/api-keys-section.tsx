import { useState } from "react";
import type { CurrentUser } from "@authsim/sdk";
import { useApiKeys } from "../hooks/use-user-data.ts";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { Field, SubmitButton } from "./form-parts.tsx";

/**
 * The user's API keys: the full value is shown once, right after creation; afterwards only its last four characters
 * (spec §3). Revoking sets the revoked flag; a public key cannot be revoked (spec §4).
 */
export function ApiKeysSection({ user }: { user: CurrentUser }) {
  const keys = useApiKeys();
  const [description, setDescription] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const create = useAsyncAction(async () => {
    const key = await user.createApiKey({ description: description.trim(), expiresAt: null });
    setCreated(key.value);
    setDescription("");
  });
  const revoke = useAsyncAction(async (id: string) => {
    await keys.find((k) => k.id === id)?.revoke();
  });
  const onSubmit = submitHandler(create);
  return (
    <section className="authsim-section" aria-labelledby="authsim-api-keys">
      <h2 id="authsim-api-keys">API keys</h2>
      <ul aria-label="API keys">
        {keys.map((key) => (
          <li key={key.id}>
            {key.description} (…{key.value.lastFour}){key.manuallyRevokedAt ? " (revoked)" : ""}{" "}
            {!key.manuallyRevokedAt && !key.isPublic ? (
              <button type="button" onClick={() => void revoke.run(key.id)} disabled={revoke.pending}>
                Revoke
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <ErrorMessage error={revoke.error} />
      {created ? (
        <p role="status">
          New key (copy it now, it is not shown again): <code>{created}</code>
        </p>
      ) : null}
      <form onSubmit={onSubmit} aria-label="Create an API key">
        <Field label="Key description" name="key-description" value={description} onChange={setDescription} />
        <ErrorMessage error={create.error} />
        <SubmitButton pending={create.pending}>Create key</SubmitButton>
      </form>
    </section>
  );
}
