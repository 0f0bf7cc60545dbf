import type { ClientUserJson, ServerUserJson } from "@authsim/sdk/contract";
import { layeredBoolean } from "../ops/config/config-layers.ts";
import type { UserRecord } from "../store/records.ts";
import type { Tables } from "../store/store.ts";
import { clientTeamView, serverTeamView } from "./teams.ts";
import { userOAuthProvidersView } from "./oauth-providers.ts";

/**
 * Why a user is restricted, or null. As upstream orders the reasons: anonymous, then an unverified address when the
 * project requires verification (the user can fix that one), then an administrator's restriction.
 */
export function restrictedReasonOf(tables: Tables, user: UserRecord): ClientUserJson["restricted_reason"] {
  const emailNotVerified =
    !user.isAnonymous &&
    !user.primaryEmailVerified &&
    layeredBoolean({ tables }, user.projectId, "onboarding.requireEmailVerification", false);
  return user.isAnonymous
    ? { type: "anonymous" }
    : emailNotVerified
      ? { type: "email_not_verified" }
      : user.restrictedByAdmin
        ? { type: "restricted_by_administrator" }
        : null;
}

/** The client "me" view: exactly the keys of protocol.md §5.2. */
export function clientUserView(tables: Tables, user: UserRecord): ClientUserJson {
  const team = user.selectedTeamId ? tables.teams.get(user.selectedTeamId) : undefined;
  const restrictedReason = restrictedReasonOf(tables, user);
  return {
    id: user.id,
    primary_email: user.primaryEmail,
    primary_email_verified: user.primaryEmailVerified,
    display_name: user.displayName,
    client_metadata: user.clientMetadata,
    client_read_only_metadata: user.clientReadOnlyMetadata,
    profile_image_url: user.profileImageUrl,
    signed_up_at_millis: user.signedUpAtMillis,
    has_password: user.passwordHash !== null,
    // As upstream: a password or an OTP sign-in method, whether or not the primary email is used for sign-in.
    auth_with_email: user.passwordHash !== null || user.otpAuthEnabled,
    oauth_providers: userOAuthProvidersView(tables, user.id),
    selected_team_id: team ? team.id : null,
    selected_team: team ? clientTeamView(team) : null,
    requires_totp_mfa: user.totpSecretBase64 !== null,
    otp_auth_enabled: user.otpAuthEnabled,
    passkey_auth_enabled: user.passkeyAuthEnabled,
    is_anonymous: user.isAnonymous,
    is_restricted: restrictedReason !== null,
    restricted_reason: restrictedReason,
    restricted_by_admin: user.restrictedByAdmin,
    restricted_by_admin_reason: user.restrictedByAdminReason,
  };
}

export function serverUserView(tables: Tables, user: UserRecord): ServerUserJson {
  const team = user.selectedTeamId ? tables.teams.get(user.selectedTeamId) : undefined;
  return {
    ...clientUserView(tables, user),
    selected_team: team ? serverTeamView(team) : null,
    primary_email_auth_enabled: user.primaryEmailAuthEnabled,
    server_metadata: user.serverMetadata,
    last_active_at_millis: user.lastActiveAtMillis,
    restricted_by_admin_private_details: user.restrictedByAdminPrivateDetails,
    country_code: user.countryCode,
    risk_scores: user.riskScores,
  };
}
