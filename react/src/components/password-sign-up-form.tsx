import { useState } from "react";
import { KnownError } from "@authsim/sdk";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { Field, Status, SubmitButton } from "./form-parts.tsx";
import { useAfterAuthRedirect } from "./use-after-auth.ts";

/** Email and password sign-up (the verification email links to the app's email-verification page). */
export function PasswordSignUpForm() {
  const app = useStackApp();
  const { redirect } = useAfterAuthRedirect("afterSignUp");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [redirecting, setRedirecting] = useState(false);
  const action = useAsyncAction(async () => {
    // The catalogue's own error, so the message is the one the spec quotes ('Passwords do not match.').
    if (password !== repeat) throw new KnownError("PASSWORD_CONFIRMATION_MISMATCH");
    const result = await app.signUpWithCredential({ email, password, noRedirect: true });
    if (result.status === "error") throw result.error;
    setRedirecting(true);
    try {
      await redirect();
    } finally {
      setRedirecting(false);
    }
  });
  const onSubmit = submitHandler(action);
  return (
    <form onSubmit={onSubmit} aria-label="Sign up with email and password" noValidate>
      <Field label="Email" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} />
      <Field
        label="Password"
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
      <SubmitButton pending={action.pending}>Sign up</SubmitButton>
      <Status>{redirecting ? "Account created. Redirecting…" : null}</Status>
    </form>
  );
}
