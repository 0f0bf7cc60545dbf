import { isTrustedRedirectUrl } from "@authsim/sdk/urls";
import { knownError } from "../../errors/known-error.ts";
import type { ProjectRecord } from "../../store/records.ts";

/**
 * Emailed links point at a callback URL the caller names; it must be on a trusted domain of the project (or on
 * localhost when the project allows it), else REDIRECT_URL_NOT_WHITELISTED (spec §5, protocol.md §7.2). The one
 * check for every endpoint that takes a redirect URL: sign-up verification, contact-channel verification, password
 * reset, magic link, team invitation, sign-in invitation and the checkout return URL (conformance/src/properties/
 * redirect-endpoints.test.ts holds them to it).
 */
export function assertTrustedCallback(project: ProjectRecord, callbackUrl: string): void {
  const trusted = isTrustedRedirectUrl(callbackUrl, {
    allowLocalhost: project.config.allow_localhost,
    domains: project.config.domains,
  });
  if (!trusted) throw knownError("REDIRECT_URL_NOT_WHITELISTED");
}
