import { crossDomainHandoff } from "@authsim/sdk";
import { useStackContext } from "../hooks/use-stack-app.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { usePageUrl } from "../navigation/page-location.ts";
import { isTrustedTarget, readReturnTo, UntrustedRedirectError } from "../navigation/return-to.ts";
import { providerName } from "./provider-names.ts";
import { ProviderIcon } from "./provider-icon.tsx";

/**
 * One "Continue with <provider>" button per OAuth provider the project enables (spec §3 project config). The SDK sends
 * the browser to the provider; the oauth-callback page finishes. A return address (after_auth_return_to, spec §2)
 * rides through the provider as the callback's redirect, so it is checked here, before the page is left.
 */
export function OAuthButtons({ providers }: { providers: readonly { id: string }[] }) {
  const { app, trustedRedirects } = useStackContext();
  const page = usePageUrl();
  const returnTo = readReturnTo(page);
  const start = useAsyncAction(async (providerId: string) => {
    // A return address that needs the cross-domain hand-off (use-redirect.ts) comes back to this page, as the kit's
    // hosted pages do: signed in, the page hands the session over with the state it still carries.
    if (returnTo !== null && crossDomainHandoff(returnTo, page)) {
      await app.signInWithOAuth(providerId, { returnTo: page.href });
      return;
    }
    if (returnTo !== null && !isTrustedTarget(returnTo, page, trustedRedirects))
      throw new UntrustedRedirectError(returnTo);
    await app.signInWithOAuth(providerId, returnTo === null ? {} : { returnTo: new URL(returnTo, page).href });
  });
  if (providers.length === 0) return null;
  return (
    <div className="authsim-oauth" role="group" aria-label="Sign in with another account">
      {providers.map((provider) => (
        <button key={provider.id} type="button" onClick={() => void start.run(provider.id)} disabled={start.pending}>
          <ProviderIcon id={provider.id} />
          <span>Continue with {providerName(provider.id)}</span>
        </button>
      ))}
      <ErrorMessage error={start.error} />
    </div>
  );
}
