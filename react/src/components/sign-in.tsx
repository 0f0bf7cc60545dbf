import { useStackApp } from "../hooks/use-stack-app.ts";
import { useProject } from "../hooks/use-project.ts";
import { usePageUrl } from "../navigation/page-location.ts";
import { readReturnTo, withReturnTo } from "../navigation/return-to.ts";
import { pageUrl } from "../handler/page-urls.ts";
import { AlreadySignedIn, useArrivedSignedIn } from "./already-signed-in.tsx";
import { AuthPage } from "./form-parts.tsx";
import { PasswordSignInForm } from "./password-sign-in-form.tsx";
import { SignInMethods } from "./sign-in-methods.tsx";

export interface SignInProps {
  title?: string;
  /** A visitor already signed in is sent on to after-sign-in (or after_auth_return_to) instead of only being told so. */
  automaticRedirect?: boolean;
}

/** Sign-in with what the project enables; after it, the post-authentication redirect of spec §2. */
export function SignIn({ title = "Sign in", automaticRedirect = false }: SignInProps) {
  const app = useStackApp();
  const { config } = useProject();
  const returnTo = readReturnTo(usePageUrl());
  const signedIn = useArrivedSignedIn();
  if (signedIn) return <AlreadySignedIn user={signedIn} kind="afterSignIn" automaticRedirect={automaticRedirect} />;
  return (
    <AuthPage title={title}>
      <SignInMethods config={config} passkey passwordForm={<PasswordSignInForm />} />
      <nav className="authsim-links" aria-label="Other options">
        {config.signUpEnabled ? <a href={withReturnTo(app.urls.signUp, returnTo)}>Create an account</a> : null}
        {config.credentialEnabled ? <a href={pageUrl(app, "forgotPassword")}>Forgot your password?</a> : null}
      </nav>
    </AuthPage>
  );
}
