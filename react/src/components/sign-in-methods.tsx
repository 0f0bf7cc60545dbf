import { useState, type ReactNode } from "react";
import type { ProjectConfig } from "@authsim/sdk";
import { MagicLinkSignIn } from "./magic-link-sign-in.tsx";
import { OAuthButtons } from "./oauth-buttons.tsx";
import { PasskeySignIn } from "./passkey-sign-in.tsx";

/**
 * The ways in that the project enables (spec §3 project config), around the page's password form: OAuth buttons, a
 * passkey (sign-in only: a passkey belongs to an existing account), and the emailed code. The password form and the
 * emailed code share one place on the page, so there is a single "Email" field at a time; a button switches.
 */
export function SignInMethods({
  config,
  passkey,
  passwordForm,
}: {
  config: ProjectConfig;
  passkey: boolean;
  passwordForm: ReactNode;
}) {
  const [method, setMethod] = useState<"password" | "code">(config.credentialEnabled ? "password" : "code");
  const both = config.credentialEnabled && config.magicLinkEnabled;
  const none =
    !config.credentialEnabled &&
    !config.magicLinkEnabled &&
    config.oauthProviders.length === 0 &&
    !(passkey && config.passkeyEnabled);
  const buttons = config.oauthProviders.length > 0 || (passkey && config.passkeyEnabled);
  const form = config.credentialEnabled || config.magicLinkEnabled;
  return (
    <>
      <OAuthButtons providers={config.oauthProviders} />
      {passkey && config.passkeyEnabled ? <PasskeySignIn /> : null}
      {buttons && form ? (
        <p className="authsim-divider" aria-hidden="true">
          or
        </p>
      ) : null}
      {method === "password" && config.credentialEnabled ? passwordForm : null}
      {method === "code" && config.magicLinkEnabled ? <MagicLinkSignIn /> : null}
      {both ? (
        <button
          type="button"
          className="authsim-switch"
          onClick={() => setMethod(method === "password" ? "code" : "password")}
        >
          {method === "password" ? "Email me a code instead" : "Use a password instead"}
        </button>
      ) : null}
      {none ? (
        <p role="alert" className="authsim-error">
          No sign-in method is enabled for this project.
        </p>
      ) : null}
    </>
  );
}
