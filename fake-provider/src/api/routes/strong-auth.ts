import type { AnyRouteSpec } from "./define.ts";
import { mfaPasskeyCliRoutes } from "./mfa-passkeys-cli.ts";
import { oauthProviderRoutes } from "./oauth-providers.ts";
import { oauthRoutes } from "./oauth.ts";

/** Strong authentication (issue 5): OAuth, provider links and connected accounts, TOTP MFA, passkeys, CLI login. */
export const strongAuthRoutes: Record<string, AnyRouteSpec> = {
  ...oauthRoutes,
  ...oauthProviderRoutes,
  ...mfaPasskeyCliRoutes,
};
