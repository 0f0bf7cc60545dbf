import { useState } from "react";
import { KnownError, type CurrentUser } from "@authsim/sdk";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { Field, Status, SubmitButton } from "./form-parts.tsx";

/** Password change (sdk-surface.md §9), shown to a user who has a password: there is no old one to check otherwise. */
export function PasswordSection({ user }: { user: CurrentUser }) {
  const [oldPassword, setOldPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [saved, setSaved] = useState(false);
  const action = useAsyncAction(async () => {
    setSaved(false);
    if (newPassword !== repeat) throw new KnownError("PASSWORD_CONFIRMATION_MISMATCH");
    // The reference SDK returns this call's known error instead of a Result (sdk-surface.md §9b).
    const error = await user.updatePassword({ oldPassword, newPassword });
    if (error) throw error;
    setOldPassword("");
    setNewPassword("");
    setRepeat("");
    setSaved(true);
  });
  if (!user.hasPassword) return null;
  const onSubmit = submitHandler(action);
  return (
    <section className="authsim-section" aria-labelledby="authsim-password">
      <h2 id="authsim-password">Password</h2>
      <form onSubmit={onSubmit} aria-label="Change password" noValidate>
        <Field
          label="Current password"
          name="old-password"
          type="password"
          autoComplete="current-password"
          value={oldPassword}
          onChange={setOldPassword}
        />
        <Field
          label="New password"
          name="new-password"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={setNewPassword}
        />
        <Field
          label="Repeat new password"
          name="repeat-password"
          type="password"
          autoComplete="new-password"
          value={repeat}
          onChange={setRepeat}
        />
        <ErrorMessage error={action.error} />
        <SubmitButton pending={action.pending}>Change password</SubmitButton>
        <Status>{saved ? "Password changed." : null}</Status>
      </form>
    </section>
  );
}
