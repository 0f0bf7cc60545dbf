import { useState } from "react";
import { KnownError } from "@authsim/sdk";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { AuthPage, Field, Status, SubmitButton } from "../components/form-parts.tsx";
import { usePageUrl } from "../navigation/page-location.ts";

/** Sets a new password with the `code` of the reset link (spec §4: the code may be checked first). */
export function PasswordResetPage() {
  const app = useStackApp();
  const code = usePageUrl().searchParams.get("code");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [done, setDone] = useState(false);
  const action = useAsyncAction(async () => {
    if (!code) return;
    if (password !== repeat) throw new KnownError("PASSWORD_CONFIRMATION_MISMATCH");
    const result = await app.resetPassword({ code, password });
    if (result.status === "error") throw result.error;
    setDone(true);
  });
  if (!code) {
    return (
      <AuthPage title="Choose a new password">
        <p role="alert" className="authsim-error">
          This link is incomplete: it has no reset code. Ask for a new one.
        </p>
      </AuthPage>
    );
  }
  const onSubmit = submitHandler(action);
  return (
    <AuthPage title="Choose a new password">
      {done ? (
        <>
          <Status>Your password has been changed.</Status>
          <a href={app.urls.signIn}>Sign in</a>
        </>
      ) : (
        <form onSubmit={onSubmit} aria-label="Choose a new password" noValidate>
          <Field
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
          />
          <Field
            label="Repeat password"
            name="repeat-password"
            type="password"
            autoComplete="new-password"
            value={repeat}
            onChange={setRepeat}
          />
          <ErrorMessage error={action.error} />
          <SubmitButton pending={action.pending}>Set password</SubmitButton>
        </form>
      )}
    </AuthPage>
  );
}
