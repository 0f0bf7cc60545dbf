import { useState } from "react";
import type { CurrentUser } from "@authsim/sdk";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { Field, Status, SubmitButton } from "./form-parts.tsx";

/** Profile: the display name (PATCH /users/me); the cache refresh after the write shows the new name everywhere. */
export function ProfileSection({ user }: { user: CurrentUser }) {
  const [displayName, setDisplayName] = useState(user.displayName ?? "");
  const [saved, setSaved] = useState(false);
  const action = useAsyncAction(async () => {
    setSaved(false);
    await user.setDisplayName(displayName.trim() === "" ? null : displayName.trim());
    setSaved(true);
  });
  const onSubmit = submitHandler(action);
  return (
    <section className="authsim-section" aria-labelledby="authsim-profile">
      <h2 id="authsim-profile">Profile</h2>
      <dl>
        <dt>Email</dt>
        <dd>
          {user.primaryEmail ?? "None"}
          {user.primaryEmail ? (user.primaryEmailVerified ? " (verified)" : " (not verified)") : null}
        </dd>
      </dl>
      <form onSubmit={onSubmit} aria-label="Edit profile">
        <Field
          label="Display name"
          name="display-name"
          autoComplete="name"
          value={displayName}
          onChange={setDisplayName}
          required={false}
        />
        <ErrorMessage error={action.error} />
        <SubmitButton pending={action.pending}>Save</SubmitButton>
        <Status>{saved ? "Saved." : null}</Status>
      </form>
    </section>
  );
}
