import { useState } from "react";
import type { CurrentUser } from "@authsim/sdk";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { Status } from "./form-parts.tsx";

/**
 * Passkeys (spec §1, §5), shown where the project enables them: registering one runs the browser's WebAuthn through
 * the SDK (user.registerPasskey), which turns passkey sign-in on; it can be turned off again (passkeyAuthEnabled).
 * The API has no call to list or delete single passkeys (spec §7 names only the registration and sign-in calls), so
 * the section shows the account's switch, not a list.
 */
export function PasskeysSection({ user }: { user: CurrentUser }) {
  const [added, setAdded] = useState(false);
  const register = useAsyncAction(async () => {
    setAdded(false);
    const result = await user.registerPasskey();
    if (result.status === "error") throw result.error;
    setAdded(true);
  });
  const turnOff = useAsyncAction(async () => {
    setAdded(false);
    await user.update({ passkeyAuthEnabled: false });
  });
  return (
    <section className="authsim-section" aria-labelledby="authsim-passkeys">
      <h2 id="authsim-passkeys">Passkeys</h2>
      <p>
        {user.passkeyAuthEnabled
          ? "Passkey sign-in is on for your account."
          : "Passkey sign-in is off for your account."}
      </p>
      <button
        type="button"
        onClick={() => void register.run()}
        disabled={register.pending}
        aria-busy={register.pending}
      >
        Add a passkey
      </button>
      {user.passkeyAuthEnabled ? (
        <button type="button" onClick={() => void turnOff.run()} disabled={turnOff.pending}>
          Turn off passkey sign-in
        </button>
      ) : null}
      <ErrorMessage error={register.error ?? turnOff.error} />
      <Status>{added ? "Passkey added. You can sign in with it now." : null}</Status>
    </section>
  );
}
