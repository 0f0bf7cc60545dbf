import { useState } from "react";
import { KnownError, type CurrentUser, type TotpSetup } from "@authsim/sdk";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { useProject } from "../hooks/use-project.ts";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { Field, Status, SubmitButton } from "./form-parts.tsx";
import { ReadOnlyField } from "./read-only-field.tsx";

/**
 * TOTP multi-factor authentication (spec §1, §4 "MFA"): turning it on makes a secret (the SDK's createTotpSetup, from
 * the app's random source), shows it as text and as an otpauth:// URI (no QR code: nothing to add for it), and saves it
 * only once the person's authenticator app gives a valid code, so nobody locks themselves out with a mistyped key.
 */
export function MfaSection({ user }: { user: CurrentUser }) {
  const app = useStackApp();
  const project = useProject();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState("");
  const enable = useAsyncAction(async () => {
    if (!setup) return;
    // The provider's own message for a wrong code (spec §8 INVALID_TOTP_CODE), though the check is local.
    if (!(await setup.verify(code))) throw new KnownError("INVALID_TOTP_CODE");
    await user.update({ totpMultiFactorSecret: setup.secret });
    setSetup(null);
    setCode("");
  });
  const disable = useAsyncAction(() => user.update({ totpMultiFactorSecret: null }));
  const start = () =>
    setSetup(
      app.createTotpSetup({
        accountName: user.primaryEmail ?? user.displayName ?? user.id,
        issuer: project.displayName,
      }),
    );
  const onSubmit = submitHandler(enable);
  return (
    <section className="authsim-section" aria-labelledby="authsim-mfa">
      <h2 id="authsim-mfa">Two-factor authentication</h2>
      {user.isMultiFactorRequired ? (
        <>
          <Status>Two-factor authentication is on.</Status>
          <button type="button" onClick={() => void disable.run()} disabled={disable.pending}>
            Turn off two-factor authentication
          </button>
          <ErrorMessage error={disable.error} />
        </>
      ) : setup ? (
        <form onSubmit={onSubmit} aria-label="Set up two-factor authentication" noValidate>
          <p>
            Add this key to your authenticator app (or open the setup link on your phone), then enter the code it shows.
          </p>
          <ReadOnlyField label="Secret key" value={setup.secretBase32} />
          <ReadOnlyField label="Setup link" value={setup.otpauthUri} />
          <Field
            label="Authentication code"
            name="totp"
            autoComplete="one-time-code"
            inputMode="numeric"
            value={code}
            onChange={setCode}
          />
          <ErrorMessage error={enable.error} />
          <SubmitButton pending={enable.pending}>Verify and turn on</SubmitButton>
          <button type="button" onClick={() => setSetup(null)}>
            Cancel setup
          </button>
        </form>
      ) : (
        <>
          <p>Ask for a code from an authenticator app as well as your password when signing in.</p>
          <button type="button" onClick={start}>
            Set up two-factor authentication
          </button>
        </>
      )}
    </section>
  );
}
