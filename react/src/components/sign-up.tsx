import { useStackApp } from "../hooks/use-stack-app.ts";
import { useProject } from "../hooks/use-project.ts";
import { usePageUrl } from "../navigation/page-location.ts";
import { readReturnTo, withReturnTo } from "../navigation/return-to.ts";
import { AlreadySignedIn, useArrivedSignedIn } from "./already-signed-in.tsx";
import { AuthPage } from "./form-parts.tsx";
import { PasswordSignUpForm } from "./password-sign-up-form.tsx";
import { SignInMethods } from "./sign-in-methods.tsx";

export interface SignUpProps {
  title?: string;
  /** A visitor already signed in is sent on to after-sign-up (or after_auth_return_to) instead of only being told so. */
  automaticRedirect?: boolean;
}

/**
 * Sign-up with what the project enables (spec §8: SIGN_UP_NOT_ENABLED otherwise, so the page says so up front). An
 * anonymous user gets the forms: signing up upgrades them (spec §4 counts them as signed out).
 */
export function SignUp({ title = "Create an account", automaticRedirect = false }: SignUpProps) {
  const app = useStackApp();
  const { config } = useProject();
  const returnTo = readReturnTo(usePageUrl());
  const signedIn = useArrivedSignedIn();
  // The published kit sends an already signed-in visitor of its sign-up page to after-sign-up (which defaults to
  // after-sign-in), so this does too.
  if (signedIn) return <AlreadySignedIn user={signedIn} kind="afterSignUp" automaticRedirect={automaticRedirect} />;
  return (
    <AuthPage title={title}>
      {config.signUpEnabled ? (
        <SignInMethods config={config} passkey={false} passwordForm={<PasswordSignUpForm />} />
      ) : (
        <p role="alert" className="authsim-error">
          Sign-up is not enabled for this project.
        </p>
      )}
      <nav className="authsim-links" aria-label="Other options">
        <a href={withReturnTo(app.urls.signIn, returnTo)}>Already have an account? Sign in</a>
      </nav>
    </AuthPage>
  );
}
