import { useCallback } from "react";
import { crossDomainHandoff, stackAppInternalsSymbol } from "@authsim/sdk";
import { useStackContext } from "../hooks/use-stack-app.ts";
import { isTrustedTarget, UntrustedRedirectError } from "./return-to.ts";
import { usePageUrl } from "./page-location.ts";
import { redirectOnce } from "./redirect-once.ts";

/**
 * Navigates through the app's redirectMethod ("window" waits the 2 s redirect pause of spec §2 after leaving), only to
 * trusted URLs: anything else is refused with an UntrustedRedirectError for the page to show.
 *
 * A return address on another origin that carries the published kit's cross-domain state (its hosted mode: these pages
 * stand on the hosted origin, the app on its own) is handed the session as the kit's hosted pages hand it: the service
 * gives a one-time code for it and decides, by the project's trusted domains and localhost allowance, whether the
 * app's address may have it (REDIRECT_URL_NOT_WHITELISTED, shown by the page, when not).
 */
export function useRedirect(): (target: string) => Promise<void> {
  const { app, caches, trustedRedirects } = useStackContext();
  const page = usePageUrl();
  const href = page.href;
  return useCallback(
    async (target: string) => {
      const handoff = crossDomainHandoff(target, new URL(href));
      if (handoff) {
        await redirectOnce(caches, await app[stackAppInternalsSymbol].createCrossDomainAuthRedirectUrl(handoff), href);
        return;
      }
      if (!isTrustedTarget(target, new URL(href), trustedRedirects)) throw new UntrustedRedirectError(target);
      await redirectOnce(caches, target, href);
    },
    [app, caches, trustedRedirects, href],
  );
}
