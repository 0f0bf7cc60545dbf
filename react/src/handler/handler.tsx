import { Suspense, type ReactNode } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { ErrorBoundary } from "../errors/error-boundary.tsx";
import { AccountSettings } from "../components/account-settings.tsx";
import { SignIn } from "../components/sign-in.tsx";
import { SignUp } from "../components/sign-up.tsx";
import { AuthPage } from "../components/form-parts.tsx";
import { browserHref, PageLocationContext } from "../navigation/page-location.ts";
import { EmailVerificationPage } from "../pages/email-verification-page.tsx";
import { ErrorPage } from "../pages/error-page.tsx";
import { ForgotPasswordPage } from "../pages/forgot-password-page.tsx";
import { MagicLinkCallbackPage } from "../pages/magic-link-callback-page.tsx";
import { PasswordResetPage } from "../pages/password-reset-page.tsx";
import { SignOutPage } from "../pages/sign-out-page.tsx";
import { OAuthCallbackPage } from "../pages/oauth-callback-page.tsx";
import { MfaPage } from "../pages/mfa-page.tsx";
import { TeamInvitationPage } from "../pages/team-invitation-page.tsx";
import { CliAuthConfirmPage } from "../pages/cli-auth-confirm-page.tsx";
import { handlerCss } from "./handler-styles.ts";
import { pageForPath, type PageKey } from "./page-urls.ts";

export interface HandlerProps {
  /** The page URL (path and query); defaults to the browser's location. Give it when a router owns the URL. */
  location?: string;
}

const pages: Record<PageKey, () => ReactNode> = {
  // As the published StackHandler: a visitor who is already signed in is sent on rather than shown the form.
  signIn: () => <SignIn automaticRedirect />,
  signUp: () => <SignUp automaticRedirect />,
  signOut: () => <SignOutPage />,
  forgotPassword: () => <ForgotPasswordPage />,
  passwordReset: () => <PasswordResetPage />,
  emailVerification: () => <EmailVerificationPage />,
  magicLinkCallback: () => <MagicLinkCallbackPage />,
  accountSettings: () => <AccountSettings />,
  error: () => <ErrorPage />,
  oauthCallback: () => <OAuthCallbackPage />,
  mfa: () => <MfaPage />,
  teamInvitation: () => <TeamInvitationPage />,
  cliAuthConfirm: () => <CliAuthConfirmPage />,
};

/** The handler pages under the app's handler base path (spec §2, default /handler), as one routed component. */
export function Handler({ location }: HandlerProps) {
  const app = useStackApp();
  const base = browserHref() ?? "http://localhost/";
  const url = new URL(location ?? base, base);
  const key = pageForPath(app, url.pathname);
  const content =
    key === null || key === "unknown" ? (
      <AuthPage title="Page not found">
        <p role="alert">There is no page at {url.pathname}.</p>
        <a href={app.urls.home}>Go home</a>
      </AuthPage>
    ) : (
      pages[key]()
    );
  return (
    <PageLocationContext.Provider value={url.href}>
      <main className="authsim-handler">
        <style>{handlerCss}</style>
        <ErrorBoundary key={url.href}>
          <Suspense fallback={<p role="status">Loading…</p>}>{content}</Suspense>
        </ErrorBoundary>
      </main>
    </PageLocationContext.Provider>
  );
}
