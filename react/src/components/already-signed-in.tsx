import { useEffect, useRef, useState } from "react";
import type { CurrentUser } from "@authsim/sdk";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { useUser } from "../hooks/use-user.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { AuthPage, Status } from "./form-parts.tsx";
import { useAfterAuthRedirect } from "./use-after-auth.ts";

/**
 * The user who was already signed in when the sign-in or sign-up page opened, or null. useUser's default leaves out
 * anonymous users (spec §4: they count as signed out), so an anonymous visitor gets the forms and can sign up to
 * upgrade. Only the user at the first render counts: someone who signs in on the page keeps the page they used (its
 * "Redirecting…" line) while the sign-in's own redirect runs, instead of a second redirect racing it.
 */
export function useArrivedSignedIn(): CurrentUser | null {
  const user = useUser();
  const [arrivedSignedIn] = useState(() => user !== null);
  return arrivedSignedIn ? user : null;
}

/**
 * What the sign-in and sign-up pages show a visitor who is already signed in, as the published kit does: "You are
 * already signed in" with links home and to sign out. With `automaticRedirect` (which the published StackHandler turns
 * on for its pages) the page also goes on as the redirect after authenticating would (spec §2): to after_auth_return_to
 * when the page carries a trusted one, else to afterSignIn (sign-in) or afterSignUp (sign-up). Then a flow that comes
 * back to the sign-in page signed in (an OAuth sign-in started there without an explicit returnTo) still ends there.
 */
export function AlreadySignedIn({
  user,
  kind,
  automaticRedirect,
}: {
  user: CurrentUser;
  kind: "afterSignIn" | "afterSignUp";
  automaticRedirect: boolean;
}) {
  const app = useStackApp();
  const { redirect } = useAfterAuthRedirect(kind);
  const action = useAsyncAction(redirect);
  const { run } = action;
  const started = useRef(false);
  useEffect(() => {
    // Effects may run twice in development; one navigation is enough.
    if (!automaticRedirect || started.current) return;
    started.current = true;
    void run();
  }, [automaticRedirect, run]);
  return (
    <AuthPage title="You are already signed in">
      <p>You are already signed in{user.primaryEmail ? ` as ${user.primaryEmail}` : ""}.</p>
      {/* An untrusted after_auth_return_to is refused (spec §5) and said here; the links below still work. */}
      <ErrorMessage error={action.error} />
      <Status>{automaticRedirect && action.error === null ? "Redirecting…" : null}</Status>
      <nav className="authsim-links" aria-label="Other options">
        <a href={app.urls.home}>Go home</a>
        <a href={app.urls.signOut}>Sign out</a>
      </nav>
    </AuthPage>
  );
}
