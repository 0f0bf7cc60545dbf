import { useCallback } from "react";
import { isKnownErrorOfType, type Result } from "@authsim/sdk";
import { useAfterAuthRedirect } from "./use-after-auth.ts";

/** How a sign-in ended for the page: signed in (and on the way out), or sent on to the mfa page. */
export type SignInOutcome = "signed-in" | "mfa";

/** Any of the SDK's sign-in calls: each resolves to a Result whose error is one of its known errors. */
export type SignInCall = (options: { noRedirect: boolean }) => Promise<Result<void, Error>>;

/**
 * Finishes a sign-in whose SDK call can redirect by itself. Only the SDK knows whether the user is new (is_new_user)
 * and so whether after-sign-up or after-sign-in comes next (spec §4); only the page knows after_auth_return_to, which
 * wins when present (spec §2). So with a return address the SDK is told not to redirect and the page goes there (when
 * trusted); without one the SDK redirects. MFA required is no failure: the SDK has kept the attempt code and sent the
 * browser to the mfa page (spec §4), with the return address.
 */
export function useFinishSignIn(): (signIn: SignInCall) => Promise<SignInOutcome> {
  const { returnTo, redirect } = useAfterAuthRedirect("afterSignIn");
  return useCallback(
    async (signIn: SignInCall) => {
      let result: Result<void, Error>;
      try {
        result = await signIn({ noRedirect: returnTo !== null });
      } catch (error) {
        if (isKnownErrorOfType(error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")) return "mfa";
        throw error;
      }
      if (result.status === "error") throw result.error;
      if (returnTo !== null) await redirect();
      return "signed-in";
    },
    [returnTo, redirect],
  );
}

/** The status line for an outcome. */
export function outcomeText(outcome: SignInOutcome | null, signedIn = "Signed in. Redirecting…"): string | null {
  if (outcome === "mfa") return "Two-factor authentication is required. Redirecting…";
  return outcome === "signed-in" ? signedIn : null;
}
