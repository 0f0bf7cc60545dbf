import { useState, type FormEvent } from "react";
import { useStackContext } from "../hooks/use-stack-app.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { pageUrl } from "../handler/page-urls.ts";
import { usePageUrl } from "../navigation/page-location.ts";
import { readReturnTo, withReturnTo } from "../navigation/return-to.ts";
import { Field, Status, SubmitButton } from "./form-parts.tsx";
import { outcomeText, useFinishSignIn, type SignInOutcome } from "./use-finish-sign-in.ts";

/**
 * Magic link / one-time code sign-in (spec §1; sdk-surface.md §6): the email carries a link to the magic-link-callback
 * page and a short code. The short code is only the start of the whole code; the rest (the nonce) came back with the
 * send, so typing the code here signs in too. An unknown address becomes a new user (the SDK then picks after-sign-up).
 */
export function MagicLinkSignIn() {
  const { app, caches } = useStackContext();
  const page = usePageUrl();
  const finish = useFinishSignIn();
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState<{ email: string; nonce: string } | null>(null);
  const [code, setCode] = useState("");
  const [outcome, setOutcome] = useState<SignInOutcome | null>(null);
  const send = useAsyncAction(async () => {
    // The link keeps after_auth_return_to, so signing in from the email returns where this page would (spec §2).
    const callbackUrl =
      caches.absoluteUrl(withReturnTo(pageUrl(app, "magicLinkCallback"), readReturnTo(page))) ?? undefined;
    const result = await app.sendMagicLinkEmail(email.trim(), callbackUrl ? { callbackUrl } : {});
    if (result.status === "error") throw result.error;
    setSent({ email: email.trim(), nonce: result.data.nonce });
  });
  const signIn = useAsyncAction(async () => {
    if (!sent) return;
    setOutcome(await finish((options) => app.signInWithMagicLink(code.trim() + sent.nonce, options)));
  });
  const onSend = (e: FormEvent) => {
    e.preventDefault();
    void send.run();
  };
  const onSignIn = (e: FormEvent) => {
    e.preventDefault();
    void signIn.run();
  };
  if (!sent) {
    return (
      <form onSubmit={onSend} aria-label="Sign in with an emailed code" noValidate>
        <Field label="Email" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} />
        <ErrorMessage error={send.error} />
        <SubmitButton pending={send.pending}>Send sign-in code</SubmitButton>
      </form>
    );
  }
  return (
    <form onSubmit={onSignIn} aria-label="Enter the emailed code" noValidate>
      <p className="authsim-status">Check your inbox: we sent a sign-in link and code to {sent.email}.</p>
      <Field label="Sign-in code" name="code" autoComplete="one-time-code" value={code} onChange={setCode} />
      <ErrorMessage error={signIn.error} />
      <SubmitButton pending={signIn.pending}>Sign in with code</SubmitButton>
      <Status>{outcomeText(outcome)}</Status>
    </form>
  );
}
