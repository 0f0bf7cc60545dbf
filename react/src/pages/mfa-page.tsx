import { useState } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { AuthPage, Field, Status, SubmitButton } from "../components/form-parts.tsx";
import { outcomeText, useFinishSignIn, type SignInOutcome } from "../components/use-finish-sign-in.ts";

/**
 * The second step of a sign-in that answered MULTI_FACTOR_AUTHENTICATION_REQUIRED (spec §2 "mfa", §4): the SDK kept the
 * attempt code in session storage; the person types the code of their authenticator app. A wrong code is
 * INVALID_TOTP_CODE with its catalogue message; the right one signs in and redirects like any sign-in.
 */
export function MfaPage() {
  const app = useStackApp();
  const finish = useFinishSignIn();
  // Read once: a successful sign-in removes it from storage, and the page must not turn into "nothing pending" then.
  const [attemptCode] = useState(() => app.getPendingMfaAttemptCode());
  const [code, setCode] = useState("");
  const [outcome, setOutcome] = useState<SignInOutcome | null>(null);
  const action = useAsyncAction(async () => {
    if (!attemptCode) return;
    setOutcome(await finish((options) => app.signInWithMfa(code.replace(/\s+/g, ""), attemptCode, options)));
  });
  const onSubmit = submitHandler(action);
  if (!attemptCode) {
    return (
      <AuthPage title="Two-factor authentication">
        <p role="alert" className="authsim-error">
          There is no sign-in waiting for a code in this browser. Please sign in again.
        </p>
        <a href={app.urls.signIn}>Back to sign in</a>
      </AuthPage>
    );
  }
  return (
    <AuthPage title="Two-factor authentication">
      <p>Enter the 6-digit code your authenticator app shows for this account.</p>
      <form onSubmit={onSubmit} aria-label="Verify your sign-in" noValidate>
        <Field
          label="Authentication code"
          name="totp"
          autoComplete="one-time-code"
          inputMode="numeric"
          value={code}
          onChange={setCode}
        />
        <ErrorMessage error={action.error} />
        <SubmitButton pending={action.pending}>Verify code</SubmitButton>
        <Status>{outcomeText(outcome)}</Status>
      </form>
    </AuthPage>
  );
}
