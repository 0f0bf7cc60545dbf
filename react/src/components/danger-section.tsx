import { useState } from "react";
import type { CurrentUser } from "@authsim/sdk";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { useProject } from "../hooks/use-project.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { useRedirect } from "../navigation/use-redirect.ts";

/** Sign out, and delete the account where the project allows it (spec §6: clientUserDeletionEnabled). */
export function DangerSection({ user }: { user: CurrentUser }) {
  const app = useStackApp();
  const project = useProject();
  const redirect = useRedirect();
  const [confirming, setConfirming] = useState(false);
  const remove = useAsyncAction(async () => {
    await user.delete();
    await redirect(app.urls.home);
  });
  return (
    <section className="authsim-section" aria-labelledby="authsim-danger">
      <h2 id="authsim-danger">Session and account</h2>
      {/* The sign-out page, not user.signOut() here: this page requires a user and would send the browser to sign-in. */}
      <p>
        <a href={app.urls.signOut}>Sign out</a>
      </p>
      {project.config.clientUserDeletionEnabled ? (
        confirming ? (
          <div role="group" aria-label="Confirm account deletion">
            <p>Delete your account and all its data? This cannot be undone.</p>
            <button type="button" onClick={() => void remove.run()} disabled={remove.pending}>
              Yes, delete my account
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            Delete account
          </button>
        )
      ) : null}
      <ErrorMessage error={remove.error} />
    </section>
  );
}
