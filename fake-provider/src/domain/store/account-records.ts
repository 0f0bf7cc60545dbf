import type { GeoInfo } from "@authsim/sdk/contract";

/**
 * Records of the account surfaces (spec §3): contact channels, user and team API keys, notification preferences, and
 * the end-user location a session was opened from. Values, never mutated in place (see records.ts).
 */

/**
 * A user's email address. The primary channel mirrors `UserRecord.primaryEmail*` (value, verified, used for auth):
 * domain/ops/users/contact-channels.ts keeps both sides equal whichever side is written.
 */
export interface ContactChannelRecord {
  id: string;
  projectId: string;
  userId: string;
  type: "email";
  value: string;
  isVerified: boolean;
  isPrimary: boolean;
  usedForAuth: boolean;
  createdAtMillis: number;
}

/** A user or team API key (protocol.md §5.8). `value` is the full secret; views show its last four characters. */
export interface ProjectApiKeyRecord {
  id: string;
  projectId: string;
  type: "user" | "team";
  /** Exactly one of userId / teamId is set, as `type` says. */
  userId: string | null;
  teamId: string | null;
  description: string;
  value: string;
  isPublic: boolean;
  createdAtMillis: number;
  expiresAtMillis: number | null;
  manuallyRevokedAtMillis: number | null;
}

/** A user's choice for one notification category; absent means the category's default. Keyed `${userId}:${categoryId}`. */
export interface NotificationPreferenceRecord {
  projectId: string;
  userId: string;
  categoryId: string;
  enabled: boolean;
}

/** Where the end user was (x-forwarded-for, x-vercel-ip-*), as the session list reports it (protocol.md §5.7). */
export type EndUserIpInfo = GeoInfo;
