import type { Target } from "../targets.ts";
import { cliCases } from "./strong-auth-cli.case.ts";
import { mergeStrategyCases } from "./strong-auth-merge.case.ts";
import { mfaCases } from "./strong-auth-mfa.case.ts";
import { oauthCases } from "./strong-auth-oauth.case.ts";
import { oauthErrorCases } from "./strong-auth-oauth-errors.case.ts";
import { passkeyCases } from "./strong-auth-passkeys.case.ts";
import { oauthProviderCases } from "./strong-auth-providers.case.ts";

/** Every strong-auth suite (issue 5): OAuth, provider links and connected accounts, MFA, passkeys, CLI login. */
export function strongAuthSuites(getTarget: () => Target): void {
  oauthCases(getTarget);
  oauthErrorCases(getTarget);
  mergeStrategyCases(getTarget);
  oauthProviderCases(getTarget);
  mfaCases(getTarget);
  passkeyCases(getTarget);
  cliCases(getTarget);
}
