import { useStackApp } from "../hooks/use-stack-app.ts";
import { useProject } from "../hooks/use-project.ts";
import { usePageUrl } from "../navigation/page-location.ts";
import { readReturnTo, withReturnTo } from "../navigation/return-to.ts";
import { AuthPage } from "./form-parts.tsx";
import { PasswordSignUpForm } from "./password-sign-up-form.tsx";
import { SignInMethods } from "./sign-in-methods.tsx";

/** Sign-up with what the project enables (spec §8: SIGN_UP_NOT_ENABLED otherwise, so the page says so up front). */
export function SignUp({ title = "Create an account" }: { title?: string }) {
  const app = useStackApp();
  const { config } = useProject();
  const returnTo = readReturnTo(usePageUrl());
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
