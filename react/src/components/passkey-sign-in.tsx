import { useState } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { Status } from "./form-parts.tsx";
import { outcomeText, useFinishSignIn, type SignInOutcome } from "./use-finish-sign-in.ts";

/**
 * Signs in with a passkey of this site (spec §1, §5: WebAuthn in the browser, via the SDK). The button reads "Continue
 * with a passkey", like the OAuth buttons: a name holding "Sign in" would also match the password form's "Sign in"
 * button for tools that match names by substring (Playwright's getByRole does by default).
 */
export function PasskeySignIn() {
  const app = useStackApp();
  const finish = useFinishSignIn();
  const [outcome, setOutcome] = useState<SignInOutcome | null>(null);
  const action = useAsyncAction(async () => {
    setOutcome(await finish((options) => app.signInWithPasskey(options)));
  });
  return (
    <div className="authsim-passkey">
      <button type="button" onClick={() => void action.run()} disabled={action.pending} aria-busy={action.pending}>
        Continue with a passkey
      </button>
      <ErrorMessage error={action.error} />
      <Status>{outcomeText(outcome)}</Status>
    </div>
  );
}
