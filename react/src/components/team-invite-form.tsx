import { useState } from "react";
import { useStackContext } from "../hooks/use-stack-app.ts";
import type { TeamOf } from "../hooks/use-user-data.ts";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { pageUrl } from "../handler/page-urls.ts";
import { Field, Status, SubmitButton } from "./form-parts.tsx";

/**
 * Invites someone to a team by email (POST /team-invitations/send-code, spec §3 "Team invitation"): the provider emails
 * a link to this app's team-invitation page, where the invitee accepts. Shown only to members with `$invite_members`;
 * the provider checks that permission again, so a grant revoked meanwhile shows TEAM_PERMISSION_REQUIRED here.
 */
export function TeamInviteForm({ team }: { team: TeamOf }) {
  const { app, caches } = useStackContext();
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const invite = useAsyncAction(async () => {
    setSentTo(null);
    const to = email.trim();
    // The link leads to the handler's own page, made absolute (the email is opened outside this page).
    const callbackUrl = caches.absoluteUrl(pageUrl(app, "teamInvitation")) ?? undefined;
    await team.inviteUser(callbackUrl ? { email: to, callbackUrl } : { email: to });
    setEmail("");
    setSentTo(to);
  });
  const onSubmit = submitHandler(invite);
  return (
    <form onSubmit={onSubmit} aria-label={`Invite a member to ${team.displayName}`}>
      <Field
        label="Email to invite"
        name="invite-email"
        type="email"
        autoComplete="off"
        value={email}
        onChange={setEmail}
      />
      <ErrorMessage error={invite.error} />
      <SubmitButton pending={invite.pending}>Send invitation</SubmitButton>
      <Status>{sentTo ? `Invitation sent to ${sentTo}.` : null}</Status>
    </form>
  );
}
