import { useStackApp } from "../hooks/use-stack-app.ts";
import { useProject } from "../hooks/use-project.ts";
import { usePageUrl } from "../navigation/page-location.ts";
import { readReturnTo, withReturnTo } from "../navigation/return-to.ts";
import { capability } from "../handler/capabilities.ts";
import { pageUrl } from "../handler/page-urls.ts";
import { AuthPage } from "./form-parts.tsx";
import { PasswordSignInForm } from "./password-sign-in-form.tsx";
import { SignInMethods } from "./sign-in-methods.tsx";

/** Sign-in with what the project enables; after it, the post-authentication redirect of spec §2. */
export function SignIn({ title = "Sign in" }: { title?: string }) {
  const app = useStackApp();
  const { config } = useProject();
  const returnTo = readReturnTo(usePageUrl());
  const canReset = config.credentialEnabled && capability(app, "sendForgotPasswordEmail") !== null;
  return (
    <AuthPage title={title}>
      <SignInMethods config={config} passkey passwordForm={<PasswordSignInForm />} />
      <nav className="authsim-links" aria-label="Other options">
        {config.signUpEnabled ? <a href={withReturnTo(app.urls.signUp, returnTo)}>Create an account</a> : null}
        {canReset ? <a href={pageUrl(app, "forgotPassword")}>Forgot your password?</a> : null}
      </nav>
    </AuthPage>
  );
}
