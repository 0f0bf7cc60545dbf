import { useState } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { useUser } from "../hooks/use-user.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { AuthPage, Status } from "../components/form-parts.tsx";
import { usePageUrl } from "../navigation/page-location.ts";

/**
 * Confirms a command-line login (spec §2 "cli-auth-confirm" with login_code; §4 polling): the CLI that showed the link
 * polls until this page hands it the signed-in session. Nothing happens without the person's click, since confirming
 * gives the CLI this account. A user is required (signed out: to sign-in and back, spec §2).
 */
export function CliAuthConfirmPage() {
  const app = useStackApp();
  const user = useUser({ or: "redirect" });
  const loginCode = usePageUrl().searchParams.get("login_code");
  const [done, setDone] = useState(false);
  const confirm = useAsyncAction(async () => {
    if (!loginCode) return;
    const result = await app.completeCliLogin(loginCode);
    if (result.status === "error") throw result.error;
    setDone(true);
  });
  const title = "Authorize the command line";
  if (!loginCode) {
    return (
      <AuthPage title={title}>
        <p role="alert" className="authsim-error">
          This link is incomplete: it has no login code. Start the login from your terminal again.
        </p>
      </AuthPage>
    );
  }
  if (done) {
    return (
      <AuthPage title={title}>
        <Status>CLI authorized. You can close this window and return to your terminal.</Status>
      </AuthPage>
    );
  }
  return (
    <AuthPage title={title}>
      <p>
        A command-line tool asks to sign in as <strong>{user.primaryEmail ?? user.displayName ?? user.id}</strong>.
        Continue only if you started this login in your terminal.
      </p>
      <button type="button" onClick={() => void confirm.run()} disabled={confirm.pending} aria-busy={confirm.pending}>
        Authorize CLI
      </button>
      <ErrorMessage error={confirm.error} />
      <nav className="authsim-links" aria-label="Other options">
        <a href={app.urls.home}>Cancel</a>
      </nav>
    </AuthPage>
  );
}
