import { useState, type FormEvent } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { withReturnTo } from "../navigation/return-to.ts";
import { AuthPage, Field, Status, SubmitButton } from "./form-parts.tsx";
import { useAfterAuthRedirect } from "./use-after-auth.ts";
import { capability } from "../handler/capabilities.ts";
import { pageUrl } from "../handler/page-urls.ts";

/** Sign-in with email and password; after it, the post-authentication redirect of spec §2. */
export function SignIn({ title = "Sign in" }: { title?: string }) {
  const app = useStackApp();
  const { returnTo, redirect } = useAfterAuthRedirect("afterSignIn");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [redirecting, setRedirecting] = useState(false);
  const action = useAsyncAction(async () => {
    const result = await app.signInWithCredential({ email, password, noRedirect: true });
    if (result.status === "error") throw result.error;
    setRedirecting(true);
    try {
      await redirect();
    } finally {
      setRedirecting(false);
    }
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void action.run();
  };
  const canReset = capability(app, "sendForgotPasswordEmail") !== null;
  return (
    <AuthPage title={title}>
      <form onSubmit={onSubmit} aria-label="Sign in with email and password" noValidate>
        <Field label="Email" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" value={password} onChange={setPassword} />
        <ErrorMessage error={action.error} />
        <SubmitButton pending={action.pending}>Sign in</SubmitButton>
      </form>
      <Status>{redirecting ? "Signed in. Redirecting…" : null}</Status>
      <nav className="authsim-links" aria-label="Other options">
        <a href={withReturnTo(app.urls.signUp, returnTo)}>Create an account</a>
        {canReset ? <a href={pageUrl(app, "forgotPassword")}>Forgot your password?</a> : null}
      </nav>
    </AuthPage>
  );
}
