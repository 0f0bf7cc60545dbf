import { useEffect, useRef, useState } from "react";
import { isKnownError, isKnownErrorOfType, OAUTH_CALLBACK_FAILED_MESSAGE } from "@authsim/sdk";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { AuthPage, Status } from "../components/form-parts.tsx";
import { usePageUrl } from "../navigation/page-location.ts";

type Outcome = "signed-in" | "mfa" | "ignored" | "failed";

const TEXT: Record<Outcome, string> = {
  "signed-in": "Signed in. Redirecting…",
  mfa: "Two-factor authentication is required. Redirecting…",
  ignored:
    "This sign-in could not be finished: it was already used, it expired, or it was started in another browser. Please sign in again.",
  // spec §8: the published kit alerts this; here it is shown on the page.
  failed: OAUTH_CALLBACK_FAILED_MESSAGE,
};

/**
 * Where the provider sends the browser back from OAuth (spec §2: needs code and state). The SDK checks state against
 * its cookie, exchanges the code and redirects: a new user to after-sign-up, others to after-sign-in, or to the return
 * address the sign-in page gave (after_auth_return_to, spec §2, §4). MFA required sends the browser to the mfa page.
 */
export function OAuthCallbackPage() {
  const app = useStackApp();
  const params = usePageUrl().searchParams;
  const complete = (params.has("code") && params.has("state")) || params.has("errorCode");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const started = useRef(false);
  const action = useAsyncAction(async () => {
    try {
      setOutcome((await app.callOAuthCallback()) ? "signed-in" : "ignored");
    } catch (error) {
      // The SDK kept the attempt code and sent the browser to the mfa page (spec §4): no failure of this page.
      if (isKnownErrorOfType(error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")) {
        setOutcome("mfa");
        return;
      }
      // A known error (timeout, denial, account taken, …) shows its catalogue message.
      if (isKnownError(error)) throw error;
      // Anything else failed the exchange; an error other than the SDK's own wrapping also goes to the alert (spec §8).
      setOutcome("failed");
      if (!(error instanceof Error && error.message === OAUTH_CALLBACK_FAILED_MESSAGE)) throw error;
    }
  });
  const { run } = action;
  useEffect(() => {
    // The code is single use and its cookie is deleted on first use: development's double effects must not spend it twice.
    if (!complete || started.current) return;
    started.current = true;
    void run();
  }, [complete, run]);
  const failed = !complete || outcome === "ignored" || outcome === "failed" || action.error !== null;
  return (
    <AuthPage title="Signing in">
      {!complete ? (
        <p role="alert" className="authsim-error">
          This page needs the code and state the sign-in provider adds to its address, and they are missing. Please sign
          in again.
        </p>
      ) : null}
      {outcome === "ignored" || outcome === "failed" ? (
        <p role="alert" className="authsim-error">
          {TEXT[outcome]}
        </p>
      ) : null}
      <ErrorMessage error={action.error} />
      <Status>
        {outcome === "signed-in" || outcome === "mfa" ? TEXT[outcome] : complete && !failed ? "Signing you in…" : null}
      </Status>
      {failed ? <a href={app.urls.signIn}>Back to sign in</a> : null}
    </AuthPage>
  );
}
