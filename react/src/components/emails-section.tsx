import { useState } from "react";
import type { CurrentUser } from "@authsim/sdk";
import { useStackContext } from "../hooks/use-stack-app.ts";
import { useContactChannels, type ContactChannelOf } from "../hooks/use-user-data.ts";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { pageUrl } from "../handler/page-urls.ts";
import { Field, Status, SubmitButton } from "./form-parts.tsx";

/** One address: verify (the email links to the email-verification page), make primary, remove. */
function ChannelRow({ channel }: { channel: ContactChannelOf }) {
  const { app, caches } = useStackContext();
  const [sent, setSent] = useState(false);
  const action = useAsyncAction(async (what: "verify" | "primary" | "remove") => {
    if (what === "verify") {
      const callbackUrl = caches.absoluteUrl(pageUrl(app, "emailVerification")) ?? undefined;
      await channel.sendVerificationEmail(callbackUrl ? { callbackUrl } : {});
      setSent(true);
    } else if (what === "primary") await channel.update({ isPrimary: true });
    else await channel.delete();
  });
  return (
    <li>
      {channel.value}
      {channel.isPrimary ? " (primary)" : ""}
      {channel.isVerified ? " (verified)" : " (not verified)"}{" "}
      {!channel.isVerified ? (
        <button type="button" onClick={() => void action.run("verify")} disabled={action.pending}>
          Send verification email
        </button>
      ) : null}
      {!channel.isPrimary ? (
        <>
          <button type="button" onClick={() => void action.run("primary")} disabled={action.pending}>
            Make primary
          </button>
          <button type="button" onClick={() => void action.run("remove")} disabled={action.pending}>
            Remove
          </button>
        </>
      ) : null}
      <Status>{sent ? `Verification email sent to ${channel.value}.` : null}</Status>
      <ErrorMessage error={action.error} />
    </li>
  );
}

/** The user's email addresses (contact channels, spec §3), with a form to add one. */
export function EmailsSection({ user }: { user: CurrentUser }) {
  const channels = useContactChannels();
  const [value, setValue] = useState("");
  const add = useAsyncAction(async () => {
    await user.createContactChannel({ type: "email", value: value.trim(), usedForAuth: false });
    setValue("");
  });
  const onSubmit = submitHandler(add);
  return (
    <section className="authsim-section" aria-labelledby="authsim-emails">
      <h2 id="authsim-emails">Emails</h2>
      <ul aria-label="Email addresses">
        {channels.map((channel) => (
          <ChannelRow key={channel.id} channel={channel} />
        ))}
      </ul>
      <form onSubmit={onSubmit} aria-label="Add an email address">
        <Field
          label="New email address"
          name="new-email"
          type="email"
          autoComplete="email"
          value={value}
          onChange={setValue}
        />
        <ErrorMessage error={add.error} />
        <SubmitButton pending={add.pending}>Add email</SubmitButton>
      </form>
    </section>
  );
}
