import type { JWK } from "jose";
import type { EndUserIpInfo } from "./account-records.ts";
import type { DataVaultConfigRecord, PaymentsConfigRecord } from "./payment-records.ts";
import type { EmailConfigRecord, OAuthProviderConfigRecord } from "./admin-records.ts";

/**
 * The emulator's state as plain, JSON-serialisable records. Records are values: an operation replaces a record,
 * it never mutates one in place (so the undo log in store.ts can restore the previous value).
 */

export interface ProjectConfigRecord {
  sign_up_enabled: boolean;
  credential_enabled: boolean;
  magic_link_enabled: boolean;
  passkey_enabled: boolean;
  anonymous_enabled: boolean;
  client_team_creation_enabled: boolean;
  client_user_deletion_enabled: boolean;
  allow_localhost: boolean;
  allow_user_api_keys: boolean;
  allow_team_api_keys: boolean;
  require_publishable_client_key: boolean;
  create_team_on_sign_up: boolean;
  oauth_account_merge_strategy: "link_method" | "raise_error" | "allow_duplicates";
  /** `id`: the key the config gives the domain (domains.trustedDomains.<id>); absent when set through the project view. */
  domains: { domain: string; handler_path: string; id?: string }[];
  email_theme: string;
  /** Granted at the moments of spec §6 "Defaults": to a team's creator, to a new member, to a new user. */
  team_creator_default_permissions: { id: string }[];
  team_member_default_permissions: { id: string }[];
  user_default_permissions: { id: string }[];
  /** The project's email server (admin-records.ts); absent means the shared one. */
  email_config?: EmailConfigRecord;
  /** OAuth providers (admin-records.ts, protocol.md §5.9); absent means none. */
  oauth_providers?: OAuthProviderConfigRecord[];
  /** The payments catalogue (items, offers) and the vault's stores; absent means none (payment-records.ts). */
  payments?: PaymentsConfigRecord;
  data_vault?: DataVaultConfigRecord;
}

export interface ProjectRecord {
  id: string;
  displayName: string;
  description: string | null;
  createdAtMillis: number;
  isProductionMode: boolean;
  isDevelopmentEnvironment: boolean;
  ownerTeamId: string | null;
  config: ProjectConfigRecord;
  /**
   * The settings the config override layers apply over (domain/ops/config/project-config.ts): the project's config as it was when
   * a layer was first written, kept up to date by the admin's project update. Absent until then.
   */
  configBase?: ProjectConfigRecord;
  /** Admin-view extras of protocol.md §5.9 (absent = null / "completed"). */
  logoUrl?: string | null;
  logoFullUrl?: string | null;
  logoDarkModeUrl?: string | null;
  logoFullDarkModeUrl?: string | null;
  onboardingStatus?: string;
  /** Until when POST /emails/capacity-boost multiplies the email rate (domain/ops/emails/email-delivery.ts); absent = never boosted. */
  emailCapacityBoostExpiresAtMillis?: number;
}

/** A project's API key set (publishable / secret / admin), as the internal API keys of spec §3. */
export interface ApiKeySetRecord {
  id: string;
  projectId: string;
  description: string;
  createdAtMillis: number;
  expiresAtMillis: number | null;
  manuallyRevokedAtMillis: number | null;
  publishableClientKey: string | null;
  secretServerKey: string | null;
  superSecretAdminKey: string | null;
}

export interface UserRecord {
  id: string;
  projectId: string;
  displayName: string | null;
  primaryEmail: string | null;
  primaryEmailVerified: boolean;
  primaryEmailAuthEnabled: boolean;
  profileImageUrl: string | null;
  signedUpAtMillis: number;
  lastActiveAtMillis: number;
  clientMetadata: unknown;
  clientReadOnlyMetadata: unknown;
  serverMetadata: unknown;
  /** "pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>", or null when the user has no password. */
  passwordHash: string | null;
  totpSecretBase64: string | null;
  otpAuthEnabled: boolean;
  passkeyAuthEnabled: boolean;
  selectedTeamId: string | null;
  isAnonymous: boolean;
  restrictedByAdmin: boolean;
  restrictedByAdminReason: string | null;
  restrictedByAdminPrivateDetails: string | null;
  countryCode: string | null;
  riskScores: { sign_up: { bot: number; free_trial_abuse: number } };
}

/** A session is a refresh token row (protocol.md §4.3); its id is the access token's refresh_token_id. */
export interface SessionRecord {
  id: string;
  projectId: string;
  userId: string;
  refreshToken: string;
  createdAtMillis: number;
  expiresAtMillis: number;
  lastUsedAtMillis: number;
  isImpersonation: boolean;
  /** Where the end user was when the session was opened (account-records.ts); absent when no IP was sent. */
  endUserIpInfo?: EndUserIpInfo;
}

/** An ES256 signing key, kept in state so a restored snapshot still verifies the tokens it issued. */
export interface SigningKeyRecord {
  /** Which audience family it signs: normal users, anonymous users, restricted users (protocol.md §4.1). */
  audience: "normal" | "anonymous" | "restricted";
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
  /**
   * The public half of the key that takes over at the next rotation, published ahead of it as the real service's JWKS
   * carries two keys per audience family; it signs nothing yet. Absent in state saved before it existed (made then).
   */
  standbyPublicJwk?: JWK;
}

export interface TeamRecord {
  id: string;
  projectId: string;
  displayName: string;
  profileImageUrl: string | null;
  clientMetadata: unknown;
  clientReadOnlyMetadata: unknown;
  serverMetadata: unknown;
  createdAtMillis: number;
}

/** Keyed `${teamId}:${userId}`. */
export interface TeamMembershipRecord {
  projectId: string;
  teamId: string;
  userId: string;
  createdAtMillis: number;
}

/**
 * One mechanism for every emailed or attempt code (protocol.md §7.2–7.4): a 45-character lowercase base32 string.
 * For sign-in codes the first 6 characters, upper-cased, are the OTP and the other 39 the nonce.
 */
export interface VerificationCodeRecord {
  id: string;
  projectId: string;
  purpose:
    | "email_verification"
    | "password_reset"
    | "otp_sign_in"
    | "team_invitation"
    | "mfa_attempt"
    | "passkey_registration"
    | "passkey_authentication"
    | "cli_login"
    | "email_unsubscribe"
    | "integration_project_transfer";
  code: string;
  /** What the code is for: a user id, an email, a team id … (the purpose decides). */
  data: Record<string, unknown>;
  createdAtMillis: number;
  expiresAtMillis: number;
  usedAtMillis: number | null;
  /** Failed attempts against this code's nonce (OTP guessing). */
  attemptCount: number;
}

/** An email the provider "sent": captured in the outbox instead of going to SMTP. */
export interface SentEmailRecord {
  id: string;
  projectId: string;
  to: string[];
  subject: string;
  kind: "email_verification" | "password_reset" | "magic_link" | "team_invitation" | "sign_in_invitation" | "custom";
  html: string;
  text: string;
  /** The code the email carries, if any (the long code of its link). */
  code: string | null;
  /** The OTP shown in sign-in emails (6 characters, upper case). */
  otp: string | null;
  link: string | null;
  userId: string | null;
  /**
   * The From header as the real service writes it (`"Name" <address>`): the project's own sender with a custom email
   * server, else the project's name at the shared server's address. Absent on records from older snapshots.
   */
  from?: string;
  sentAtMillis: number;
  /** Sequence number: total order of sending, for "wait for the next one". */
  seq: number;
  /**
   * The real service's outbox entry (GET /emails/outbox; domain/ops/emails/email-outbox.ts derives its status from these and the
   * clock). Absent on records from older snapshots: they read as sent, with fields derived from the ones above.
   */
  outbox?: OutboxEntryRecord;
}

/** Who an outbox entry goes to, as the real service's email-outbox `to` (camelCase here, snake_case on the wire). */
export type OutboxRecipientRecord =
  | { type: "user-primary-email"; userId: string }
  | { type: "user-custom-emails"; userId: string; emails: string[] }
  | { type: "custom-emails"; emails: string[] };

/** Why an outbox entry was not delivered (the real service's skipped reasons). */
export type OutboxSkippedReason =
  "USER_HAS_NO_PRIMARY_EMAIL" | "USER_UNSUBSCRIBED" | "USER_ACCOUNT_DELETED" | "MANUALLY_CANCELLED";

export interface OutboxEntryRecord {
  tsxSource: string;
  themeId: string | null;
  recipient: OutboxRecipientRecord;
  variables: Record<string, unknown>;
  createdWith: "draft" | "programmatic-call";
  draftId: string | null;
  templateId: string | null;
  /** Delivery happens when the clock reaches it; before, the entry is "scheduled". */
  scheduledAtMillis: number;
  isTransactional: boolean;
  isHighPriority: boolean;
  notificationCategoryId: string | null;
  skipDeliverabilityCheck: boolean;
  isPaused: boolean;
  skippedReason: OutboxSkippedReason | null;
  skippedAtMillis: number | null;
  /** When the content was last rendered (creation, or an edit that changed it). */
  renderedAtMillis: number;
  /** Set when an edit changed the content and the new source failed to render. */
  renderError: string | null;
  updatedAtMillis: number;
  /**
   * Set while the entry waits for the email queue to render it ("preparing"; domain/ops/emails/email-queue.ts): its subject, HTML and
   * recipient address are not known yet. Absent on entries rendered when they were made (and in older snapshots).
   */
  awaitingRender?: boolean;
  /** How the queue renders it: a subject given at sending, and a category given at sending (by id). */
  subjectOverride?: string | null;
  categoryOverrideId?: string | null;
  /** The mail server refused the entry for good ("server-error"): the last failed attempt, as the real outbox lists it. */
  sendError?: OutboxSendError | null;
  /**
   * Present when the entry is handed to the project's own mail server over SMTP (domain/ops/emails/smtp-delivery.ts):
   * its attempts so far and when the next one is due. Absent, the outbox is the mailbox and delivery is the instant
   * the clock passes the schedule.
   */
  smtp?: SmtpDeliveryRecord;
}

/** Whether an entry still waits to be handed to its project's mail server over SMTP (the outbox table's index). */
export function smtpPending(e: SentEmailRecord): boolean {
  const o = e.outbox;
  return (
    o?.smtp !== undefined &&
    o.smtp.deliveredAtMillis === null &&
    !o.sendError &&
    o.skippedReason === null &&
    !o.isPaused &&
    o.awaitingRender !== true &&
    o.renderError === null
  );
}

/** An entry's delivery over SMTP, attempt by attempt (the real email queue's send_retries and retry schedule). */
export interface SmtpDeliveryRecord {
  /** The failed attempts, oldest first (the real outbox's send_attempt_errors). */
  attempts: SmtpAttemptRecord[];
  /** When the next attempt may start after a retryable failure; null when none is waiting for a backoff. */
  nextAttemptAtMillis: number | null;
  /** When the server accepted the email; null until it has. */
  deliveredAtMillis: number | null;
  /** Set while an attempt is open (the real status "sending"). */
  sendingSinceMillis: number | null;
}

export interface SmtpAttemptRecord {
  attemptNumber: number;
  atMillis: number;
  errorType: string;
  message: string;
  /** What the SMTP client reported (its error's text), for the internal details. */
  rawError: string;
}

/** A failed hand-over to the project's mail server (the real service's send attempt error). */
export interface OutboxSendError {
  atMillis: number;
  errorType: string;
  message: string;
}
