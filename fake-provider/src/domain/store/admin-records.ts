/**
 * Records of the admin surface (issue 6): email configuration, OAuth provider configuration, email themes, templates
 * and drafts, config overrides and AI chat threads. Plain JSON values, replaced and never mutated (see records.ts).
 */

/**
 * Spec §3 "email config": the provider's shared server, or the project's own server. `managed`: the own server is the
 * real service's managed provider (config `emails.server.provider` "managed", domain/ops/emails/managed-email.ts); the other
 * fields then hold what the admin view shows for it, as upstream shows it (its SMTP relay, the sender on the subdomain).
 */
export type EmailConfigRecord =
  | { type: "shared" }
  | {
      type: "standard";
      host: string;
      port: number;
      username: string;
      password: string;
      sender_name: string;
      sender_email: string;
      managed?: ManagedEmailServerRecord;
    };

/** The managed provider's settings (config `emails.server.managedSubdomain` and `managedSenderLocalPart`). */
export interface ManagedEmailServerRecord {
  subdomain: string;
  sender_local_part: string;
}

export type ManagedEmailDomainStatus = "pending_dns" | "pending_verification" | "verified" | "applied" | "failed";

/**
 * A sending subdomain a project set up for managed email (domain/ops/emails/managed-email.ts). Keyed by its id, which is
 * unique across projects as upstream's is (the id its email provider gave the domain).
 */
export interface ManagedEmailDomainRecord {
  id: string;
  projectId: string;
  /** Lower case, without trailing dots. One record per project and subdomain. */
  subdomain: string;
  senderLocalPart: string;
  nameServerRecords: string[];
  /** As written by the last transition; a pending domain reads as verified from `verifiesAtMillis` on. */
  status: ManagedEmailDomainStatus;
  /** When the provider's verification completes (there is no provider: a fixed delay after setup, read lazily). */
  verifiesAtMillis: number;
  createdAtMillis: number;
  updatedAtMillis: number;
  /** Which write came later when two share a millisecond (store.ts nextSequence "managedEmailDomains"). */
  writeSeq: number;
}

/** Spec §3 "oauth providers": shared keys, or the project's own client (protocol.md §5.9). */
export interface OAuthProviderConfigRecord {
  id: string;
  type: "shared" | "standard";
  client_id?: string;
  client_secret?: string;
  facebook_config_id?: string;
  microsoft_tenant_id?: string;
  apple_bundle_ids?: string[];
}

/** A theme: a TSX module exporting `EmailTheme` (domain/email/render/). Keyed `${projectId}:${id}`. */
export interface EmailThemeRecord {
  id: string;
  projectId: string;
  displayName: string;
  tsxSource: string;
  createdAtMillis: number;
}

/** A template: a TSX module exporting `EmailTemplate`; `themeId` false = no theme, null = the project's theme. */
export interface EmailTemplateRecord {
  id: string;
  projectId: string;
  displayName: string;
  tsxSource: string;
  themeId: string | false | null;
  createdAtMillis: number;
}

/** A draft: a template written for one send; `sentAtMillis` is set when it is sent. */
export interface EmailDraftRecord {
  id: string;
  projectId: string;
  displayName: string;
  tsxSource: string;
  themeId: string | false | null;
  sentAtMillis: number | null;
  createdAtMillis: number;
  /** When it was last changed (absent in older snapshots: its creation). */
  updatedAtMillis?: number;
}

import type { ConfigSourceJson } from "@authsim/sdk/contract";

/**
 * What was written at one level of the config system, as written: top-level keys dotted or not, values nested or not
 * (protocol.md §6.5; domain/ops/config/config-layers.ts reads its flat form). Keyed `${projectId}:${level}`.
 */
export interface ConfigOverrideRecord {
  projectId: string;
  level: "project" | "branch" | "environment";
  override: Record<string, unknown>;
  /** Branch level only: where the pushed config came from (GET /internal/config/source); absent means unlinked. */
  source?: ConfigSourceJson;
}

/** A stored AI chat thread (/internal/ai-chat/{id}). Keyed `${projectId}:${threadId}`. */
export interface AiChatRecord {
  projectId: string;
  threadId: string;
  messages: unknown[];
  updatedAtMillis: number;
}
