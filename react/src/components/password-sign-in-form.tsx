import { useState } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { Field, Status, SubmitButton } from "./form-parts.tsx";
import { outcomeText, useFinishSignIn, type SignInOutcome } from "./use-finish-sign-in.ts";

/** Email and password sign-in (spec §7 /auth/password/sign-in); MFA may follow (spec §4). */
export function PasswordSignInForm() {
  const app = useStackApp();
  const finish = useFinishSignIn();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [outcome, setOutcome] = useState<SignInOutcome | null>(null);
  const action = useAsyncAction(async () => {
    setOutcome(await finish(({ noRedirect }) => app.signInWithCredential({ email, password, noRedirect })));
  });
  const onSubmit = submitHandler(action);
  return (
    <form onSubmit={onSubmit} aria-label="Sign in with email and password" noValidate>
      <Field label="Email" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
      <ErrorMessage error={action.error} />
      <SubmitButton pending={action.pending}>Sign in</SubmitButton>
      <Status>{outcomeText(outcome)}</Status>
    </form>
  );
}
