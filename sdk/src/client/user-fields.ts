import { clientUser, type ClientUserJson, type ClientUserUpdate } from "../contract/areas/users.ts";
import { bytesToBase64 } from "../runtime/base64.ts";
import { teamFromJson, type TeamData } from "./teams.ts";

/**
 * The camelCase view of a user (sdk-surface.md §9a), read from the client user JSON. Field types come from the
 * contract's schema (design rule 3); only the names change.
 */
export interface BaseUser {
  readonly id: ClientUserJson["id"];
  readonly displayName: ClientUserJson["display_name"];
  readonly primaryEmail: ClientUserJson["primary_email"];
  readonly primaryEmailVerified: ClientUserJson["primary_email_verified"];
  readonly profileImageUrl: ClientUserJson["profile_image_url"];
  readonly signedUpAt: Date;
  readonly clientMetadata: ClientUserJson["client_metadata"];
  readonly clientReadOnlyMetadata: ClientUserJson["client_read_only_metadata"];
  readonly hasPassword: ClientUserJson["has_password"];
  readonly otpAuthEnabled: ClientUserJson["otp_auth_enabled"];
  readonly passkeyAuthEnabled: ClientUserJson["passkey_auth_enabled"];
  readonly isMultiFactorRequired: ClientUserJson["requires_totp_mfa"];
  readonly isAnonymous: ClientUserJson["is_anonymous"];
  readonly isRestricted: ClientUserJson["is_restricted"];
  readonly restrictedReason: ClientUserJson["restricted_reason"];
  /** Deprecated in the reference SDK; kept so code ports unchanged. */
  readonly emailAuthEnabled: ClientUserJson["auth_with_email"];
  readonly oauthProviders: readonly { id: string }[];
  /** The plain team data; the user objects replace it with a team object bound to their session. */
  readonly selectedTeam: TeamData | null;
  /** The client user JSON (snake_case API shape). */
  toClientJson(): ClientUserJson;
}

export function baseUserFromJson(json: ClientUserJson): BaseUser {
  // A server view parses down to the client view: zod objects drop the keys they do not declare.
  const clientJson = clientUser.parse(json);
  return {
    id: json.id,
    displayName: json.display_name,
    primaryEmail: json.primary_email,
    primaryEmailVerified: json.primary_email_verified,
    profileImageUrl: json.profile_image_url,
    // From the wire timestamp, never from the ambient clock (design rule 5).
    signedUpAt: new Date(json.signed_up_at_millis),
    clientMetadata: json.client_metadata,
    clientReadOnlyMetadata: json.client_read_only_metadata,
    hasPassword: json.has_password,
    otpAuthEnabled: json.otp_auth_enabled,
    passkeyAuthEnabled: json.passkey_auth_enabled,
    isMultiFactorRequired: json.requires_totp_mfa,
    isAnonymous: json.is_anonymous,
    isRestricted: json.is_restricted,
    restrictedReason: json.restricted_reason,
    emailAuthEnabled: json.auth_with_email,
    oauthProviders: json.oauth_providers.map((p) => ({ id: p.id })),
    selectedTeam: json.selected_team ? teamFromJson(json.selected_team) : null,
    toClientJson: () => structuredClone(clientJson),
  };
}

/** UserUpdateOptions of sdk-surface.md §9e. */
export interface UserUpdateOptions {
  displayName?: ClientUserUpdate["display_name"];
  clientMetadata?: ClientUserUpdate["client_metadata"];
  selectedTeamId?: ClientUserUpdate["selected_team_id"];
  /** The TOTP secret's bytes; null turns MFA off (protocol.md §7.4). */
  totpMultiFactorSecret?: Uint8Array | null;
  profileImageUrl?: ClientUserUpdate["profile_image_url"];
  otpAuthEnabled?: ClientUserUpdate["otp_auth_enabled"];
  passkeyAuthEnabled?: ClientUserUpdate["passkey_auth_enabled"];
  primaryEmail?: ClientUserUpdate["primary_email"];
}

/** The snake_case PATCH body; keys left undefined are omitted by JSON and so left unchanged. */
export function userUpdateToWire(o: UserUpdateOptions): ClientUserUpdate {
  return {
    display_name: o.displayName,
    client_metadata: o.clientMetadata,
    selected_team_id: o.selectedTeamId,
    totp_secret_base64:
      o.totpMultiFactorSecret === undefined
        ? undefined
        : o.totpMultiFactorSecret === null
          ? null
          : bytesToBase64(o.totpMultiFactorSecret),
    profile_image_url: o.profileImageUrl,
    otp_auth_enabled: o.otpAuthEnabled,
    passkey_auth_enabled: o.passkeyAuthEnabled,
    primary_email: o.primaryEmail,
  };
}
