import { useEffect, useRef, useState } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { useUser } from "../hooks/use-user.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { AuthPage, Status } from "../components/form-parts.tsx";
import { usePageUrl } from "../navigation/page-location.ts";

const TITLE = "Team invitation";

/** The invitation of `code`, for the signed-in user: the team's name, then accepting (a used or expired code is shown). */
function Invitation({ code }: { code: string }) {
  const app = useStackApp();
  const [teamName, setTeamName] = useState<string | null>(null);
  const [joined, setJoined] = useState(false);
  const started = useRef(false);
  const details = useAsyncAction(async () => {
    const result = await app.getTeamInvitationDetails(code);
    if (result.status === "error") throw result.error;
    setTeamName(result.data.teamDisplayName);
  });
  const accept = useAsyncAction(async () => {
    const result = await app.acceptTeamInvitation(code);
    if (result.status === "error") throw result.error;
    setJoined(true);
  });
  const { run } = details;
  useEffect(() => {
    // Reading the details does not use the code up (protocol.md §5.5); once is still enough.
    if (started.current) return;
    started.current = true;
    void run();
  }, [run]);
  if (joined) {
    return (
      <>
        <Status>You joined {teamName ?? "the team"}.</Status>
        <a href={app.urls.home}>Continue</a>
      </>
    );
  }
  return (
    <>
      <ErrorMessage error={details.error} />
      {teamName !== null ? (
        <>
          <p>
            You are invited to join <strong>{teamName}</strong>.
          </p>
          <button type="button" onClick={() => void accept.run()} disabled={accept.pending} aria-busy={accept.pending}>
            Accept invitation
          </button>
          <ErrorMessage error={accept.error} />
        </>
      ) : details.error === null ? (
        <Status>Loading the invitation…</Status>
      ) : null}
      <nav className="authsim-links" aria-label="Other options">
        <a href={app.urls.home}>Not now</a>
      </nav>
    </>
  );
}

/**
 * The team invitation callback (spec §2): the emailed link carries `code`. A user is required: without one the page
 * sends the browser to sign-in with after_auth_return_to set to this page (spec §2), so it comes back here.
 */
export function TeamInvitationPage() {
  useUser({ or: "redirect" });
  const code = usePageUrl().searchParams.get("code");
  return (
    <AuthPage title={TITLE}>
      {code ? (
        <Invitation code={code} />
      ) : (
        <p role="alert" className="authsim-error">
          This invitation link is incomplete: it has no code.
        </p>
      )}
    </AuthPage>
  );
}
