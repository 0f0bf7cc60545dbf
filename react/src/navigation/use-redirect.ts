import { useCallback } from "react";
import { useStackContext } from "../hooks/use-stack-app.ts";
import { isTrustedTarget, UntrustedRedirectError } from "./return-to.ts";
import { usePageUrl } from "./page-location.ts";
import { redirectOnce } from "./redirect-once.ts";

/**
 * Navigates through the app's redirectMethod ("window" waits the 2 s redirect pause of spec §2 after leaving), only to
 * trusted URLs: anything else is refused with an UntrustedRedirectError for the page to show.
 */
export function useRedirect(): (target: string) => Promise<void> {
  const { caches, trustedRedirects } = useStackContext();
  const page = usePageUrl();
  const href = page.href;
  return useCallback(
    async (target: string) => {
      if (!isTrustedTarget(target, new URL(href), trustedRedirects)) throw new UntrustedRedirectError(target);
      await redirectOnce(caches, target, href);
    },
    [caches, trustedRedirects, href],
  );
}
