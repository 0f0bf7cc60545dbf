import { isLocalhost } from "@authsim/sdk/urls";
import type { HostedConfig } from "./hosted-config.ts";
import "./hosted.css";

/**
 * Shown on every page when the project does not trust this origin (hosted-config.ts `originTrusted`): the emulator
 * would refuse the redirect URLs the pages send — spec §5, REDIRECT_URL_NOT_WHITELISTED — and the flows would fail with
 * no hint why. The pages never change the project's config themselves: the developer decides, and this says how.
 */
export function TrustNotice({ config }: { config: HostedConfig }) {
  const origin = window.location.origin;
  // The controls are on the emulator's own name (config.baseUrl), also when the page is on a project's own address.
  const patch = `curl -X PATCH ${config.baseUrl}/__emulator/projects/${config.projectId} -H 'content-type: application/json' -d '{"config":{"allow_localhost":true}}'`;
  return (
    <aside className="hosted-warning" role="note" aria-label="This project does not trust this address">
      <strong>
        {config.projectName} does not trust {origin}.
      </strong>{" "}
      {isLocalhost(window.location.hostname) ? "It does not allow localhost" : "This address is not localhost"}, and
      none of its trusted domains matches, so the emulator refuses the redirect URLs these pages send: sign-up's
      verification email, password reset, magic links, invitations and OAuth sign-in fail with
      REDIRECT_URL_NOT_WHITELISTED.
      {isLocalhost(window.location.hostname) ? (
        <>
          {" "}
          To use them, allow localhost in the project's config — <code>"allow_localhost": true</code> in the fixture,
          or:
          <pre>{patch}</pre>
          or add {origin} to its trusted domains.
        </>
      ) : (
        <>
          {" "}
          To use them, add {origin} to the project's trusted domains (its admin config's <code>domains</code>).
        </>
      )}
    </aside>
  );
}
