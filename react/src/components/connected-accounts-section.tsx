import type { CurrentUser } from "@authsim/sdk";
import { useProject } from "../hooks/use-project.ts";
import { useOAuthProviders, type OAuthProviderOf } from "../hooks/use-user-data.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { providerName } from "./provider-names.ts";
import { ProviderIcon } from "./provider-icon.tsx";

/** A linked account, removable unless it is the only way left to sign in. */
function LinkRow({ link, removable }: { link: OAuthProviderOf; removable: boolean }) {
  const remove = useAsyncAction(() => link.delete());
  return (
    <li className="authsim-row">
      <ProviderIcon id={link.type} />
      <span className="authsim-grow">
        {providerName(link.type)}
        {link.email ? ` (${link.email})` : ""}
      </span>
      {removable ? (
        <button type="button" onClick={() => void remove.run()} disabled={remove.pending}>
          Disconnect {providerName(link.type)}
        </button>
      ) : null}
      <ErrorMessage error={remove.error} />
    </li>
  );
}

/**
 * The user's linked OAuth accounts (spec §1 "connected OAuth accounts", §3 "OAuth provider link"), and linking another
 * provider of the project through the SDK's link flow (a redirect to the provider, back to this page). A provider links
 * one account per user (USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION), so only unlinked providers are offered.
 */
export function ConnectedAccountsSection({ user }: { user: CurrentUser }) {
  const { config } = useProject();
  const links = useOAuthProviders();
  const connect = useAsyncAction((providerId: string) => user.linkConnectedAccount(providerId));
  const linked = new Set(links.map((link) => link.type));
  const unlinked = config.oauthProviders.filter((p) => !linked.has(p.id));
  // Removing the last way in would lock the user out: keep one when there is no password, passkey or email code.
  const otherWayIn = user.hasPassword || user.passkeyAuthEnabled || user.otpAuthEnabled || links.length > 1;
  if (links.length === 0 && config.oauthProviders.length === 0) return null;
  return (
    <section className="authsim-section" aria-labelledby="authsim-connected-accounts">
      <h2 id="authsim-connected-accounts">Connected accounts</h2>
      {links.length === 0 ? <p>No account is connected.</p> : null}
      <ul aria-label="Connected accounts">
        {links.map((link) => (
          <LinkRow key={link.id} link={link} removable={otherWayIn} />
        ))}
      </ul>
      {unlinked.map((provider) => (
        <button
          key={provider.id}
          type="button"
          className="authsim-with-icon"
          onClick={() => void connect.run(provider.id)}
          disabled={connect.pending}
        >
          <ProviderIcon id={provider.id} />
          Connect {providerName(provider.id)}
        </button>
      ))}
      <ErrorMessage error={connect.error} />
    </section>
  );
}
