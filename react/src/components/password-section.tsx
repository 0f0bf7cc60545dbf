import { useState } from "react";
import { KnownError, type CurrentUser } from "@authsim/sdk";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { unwrap, userCapability } from "../handler/capabilities.ts";
import { Field, Status, SubmitButton } from "./form-parts.tsx";

/** Password change, shown once the SDK's user has updatePassword (sdk-surface.md §9; account-surfaces issue). */
export function PasswordSection({ user }: { user: CurrentUser }) {
  const update = userCapability(user, "updatePassword");
  const [oldPassword, setOldPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [saved, setSaved] = useState(false);
  const action = useAsyncAction(async () => {
    if (!update) return;
    setSaved(false);
    if (newPassword !== repeat) throw new KnownError("PASSWORD_CONFIRMATION_MISMATCH");
    unwrap(await update({ oldPassword, newPassword }));
    setOldPassword("");
    setNewPassword("");
    setRepeat("");
    setSaved(true);
  });
  if (!update || !user.hasPassword) return null;
  const onSubmit = submitHandler(action);
  return (
    <section className="authsim-section" aria-labelledby="authsim-password">
      <h2 id="authsim-password">Password</h2>
      <form onSubmit={onSubmit} aria-label="Change password" noValidate>
        <Field label="Current password" name="old-password" type="password" autoComplete="current-password" value={oldPassword} onChange={setOldPassword} />
        <Field label="New password" name="new-password" type="password" autoComplete="new-password" value={newPassword} onChange={setNewPassword} />
        <Field label="Repeat new password" name="repeat-password" type="password" autoComplete="new-password" value={repeat} onChange={setRepeat} />
        <ErrorMessage error={action.error} />
        <SubmitButton pending={action.pending}>Change password</SubmitButton>
        <Status>{saved ? "Password changed." : null}</Status>
      </form>
    </section>
  );
}
