import { useState } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { AuthPage, Field, Status, SubmitButton } from "../components/form-parts.tsx";
import { pageUrl } from "../handler/page-urls.ts";
import { useStackContext } from "../hooks/use-stack-app.ts";

/** Asks for a password-reset email whose link opens the password-reset page (spec §2, §7). */
export function ForgotPasswordPage() {
  const app = useStackApp();
  const { caches } = useStackContext();
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const action = useAsyncAction(async () => {
    const callbackUrl = caches.absoluteUrl(pageUrl(app, "passwordReset")) ?? undefined;
    const result = await app.sendForgotPasswordEmail(email, callbackUrl ? { callbackUrl } : {});
    if (result.status === "error") throw result.error;
    setSent(true);
  });
  const onSubmit = submitHandler(action);
  return (
    <AuthPage title="Reset your password">
      {sent ? (
        <Status>If an account uses that email, a reset link is on its way. Check your inbox.</Status>
      ) : (
        <form onSubmit={onSubmit} aria-label="Send a password reset email" noValidate>
          <Field label="Email" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} />
          <ErrorMessage error={action.error} />
          <SubmitButton pending={action.pending}>Send reset link</SubmitButton>
        </form>
      )}
      <nav className="authsim-links" aria-label="Other options">
        <a href={app.urls.signIn}>Back to sign in</a>
      </nav>
    </AuthPage>
  );
}
