import { useState } from "react";
import { callOperation, control, type ProjectEntry, type User } from "../api.ts";
import { ErrorBox, useAction } from "../ui.tsx";

/**
 * The link lands on the hosted email-verification page the dev server serves on this same origin (README "Hosted
 * sign-in"), so clicking it in the Outbox verifies the address with no app running. Localhost origins are trusted
 * redirect targets for projects that allow localhost; any other project answers REDIRECT_URL_NOT_WHITELISTED, shown as is.
 */
const verificationCallbackUrl = () => `${location.origin}/handler/email-verification`;

interface Sent {
  to: string;
  /** The project the hosted pages verify codes for, when it is not this one (codes belong to one project). */
  otherHostedProject: string | null;
}

/** The hosted pages' own config (hosted/src/hosted-config.ts); null where the server ships no hosted pages. */
const hostedProject = () => control.call("hostedConfig").catch(() => null);

/**
 * Sends the primary email's verification link the way an app's backend would: the wire names a contact channel, not an
 * address (POST /contact-channels/{user_id}/{channel_id}/send-verification-code, server access), so find it first.
 */
async function sendVerificationEmail(project: ProjectEntry, user: User): Promise<Sent> {
  const channels = await callOperation(project, "server", "listContactChannels", { query: { user_id: user.id } });
  const primary = channels.items.find((c) => c.is_primary && c.type === "email");
  if (!primary) throw new Error("This user has no primary email channel to verify.");
  await callOperation(project, "server", "sendContactChannelVerificationCode", {
    params: { user_id: user.id, channel_id: primary.id },
    body: { callback_url: verificationCallbackUrl() },
  });
  const hosted = await hostedProject();
  return {
    to: primary.value,
    otherHostedProject: hosted && hosted.projectId !== project.id ? hosted.projectName : null,
  };
}

/** The user's primary email, whether it is verified, and (while it is not) a button that emails its verification link. */
export function PrimaryEmail({
  project,
  user,
  onChanged,
}: {
  project: ProjectEntry;
  user: User;
  onChanged: () => void;
}) {
  const [sent, setSent] = useState<Sent | null>(null);
  const action = useAction();
  if (!user.primary_email) return null;
  const send = async () => {
    setSent(null);
    setSent(await sendVerificationEmail(project, user));
  };
  return (
    <>
      <div className="inline" data-testid="primary-email">
        Primary email <code>{user.primary_email}</code>
        <span className={user.primary_email_verified ? "badge good" : "badge bad"} data-testid="primary-email-status">
          {user.primary_email_verified ? "Verified" : "Unverified"}
        </span>
        {!user.primary_email_verified && (
          // Refreshes whatever the answer: an EMAIL_ALREADY_VERIFIED means this view was stale.
          <button className="small" disabled={action.busy} onClick={() => void action.run(send).then(onChanged)}>
            Send verification email
          </button>
        )}
      </div>
      {sent && !user.primary_email_verified && (
        <p className="notice" role="status">
          Sent a verification email to {sent.to}: open it in the Outbox and click its link.
          {sent.otherHostedProject &&
            ` The hosted pages on this server belong to ${sent.otherHostedProject}, so the link cannot verify this project's address: POST its code to /contact-channels/verify with this project's keys instead.`}
        </p>
      )}
      <ErrorBox error={action.error} />
    </>
  );
}
