import { useEffect, useRef } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { AuthPage, Status } from "../components/form-parts.tsx";

/**
 * Signs out on arrival: the server session ends, the local tokens are cleared (spec §4), then the app goes to its
 * afterSignOut URL (default home).
 */
export function SignOutPage() {
  const app = useStackApp();
  const started = useRef(false);
  const action = useAsyncAction(() => app.signOut({ redirectUrl: app.urls.afterSignOut }));
  const { run } = action;
  useEffect(() => {
    // Effects may run twice in development; a sign-out must be sent once.
    if (started.current) return;
    started.current = true;
    void run();
  }, [run]);
  return (
    <AuthPage title="Signing out">
      <ErrorMessage error={action.error} />
      <Status>{action.error ? null : "Signing you out…"}</Status>
    </AuthPage>
  );
}
