import { knownError } from "../../errors/known-error.ts";
import type { ProjectRecord } from "../../store/records.ts";
import { requireEnabledProvider } from "./oauth-config.ts";

/**
 * POST /auth/oauth/callback/apple/native: Sign in with Apple from a native app, which sends Apple's identity token
 * instead of going through the browser flow. The project needs its `apple` provider with at least one app Bundle ID (the
 * token's audience); the token must then verify against Apple's published keys.
 *
 * The emulator runs offline and cannot fetch Apple's keys, and nothing else can sign a token Apple would: every token
 * is therefore one the service could not verify, INVALID_APPLE_CREDENTIALS, after the same configuration checks.
 */
export function appleNativeSignIn(project: ProjectRecord): never {
  const apple = requireEnabledProvider(project, "apple");
  const bundleIds = (apple.apple_bundle_ids ?? []).filter((id) => id.length > 0);
  if (bundleIds.length === 0) throw knownError("APPLE_BUNDLE_ID_NOT_CONFIGURED");
  throw knownError("INVALID_APPLE_CREDENTIALS");
}
