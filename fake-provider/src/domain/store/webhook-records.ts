/**
 * Webhooks as Svix keeps them (domain/ops/webhooks/webhooks.ts): one application per project (its uid is the project id), its
 * endpoints, the messages the service announced, and per message and endpoint a delivery with its attempts. Ids are
 * Svix's: a prefix and 27 base62 characters.
 */

export interface SvixAppRecord {
  /** app_… */
  id: string;
  /** The project id, for the applications the service creates. */
  uid: string | null;
  name: string;
  metadata: Record<string, string>;
  rateLimit: number | null;
  createdAtMillis: number;
  updatedAtMillis: number;
  seq: number;
}

export interface SvixEndpointRecord {
  /** ep_… */
  id: string;
  appId: string;
  url: string;
  description: string;
  /** whsec_ and the base64 of the key the signatures are made with. */
  secret: string;
  disabled: boolean;
  /** null: every event type. */
  filterTypes: string[] | null;
  channels: string[] | null;
  version: number;
  uid: string | null;
  rateLimit: number | null;
  metadata: Record<string, string>;
  createdAtMillis: number;
  updatedAtMillis: number;
  seq: number;
}

export interface SvixMessageRecord {
  /** msg_… (also the svix-id header of its deliveries) */
  id: string;
  appId: string;
  eventType: string;
  eventId: string | null;
  channels: string[] | null;
  payload: unknown;
  timestampMillis: number;
  seq: number;
}

/** Svix's MessageStatus: 0 success, 1 pending, 2 fail, 3 sending. */
export type SvixStatus = 0 | 1 | 2 | 3;

/** A message on its way to one endpoint: attempted until it succeeds or the retry schedule ends. */
export interface SvixDeliveryRecord {
  /** `${msgId}:${endpointId}` */
  id: string;
  appId: string;
  msgId: string;
  endpointId: string;
  status: SvixStatus;
  /** Attempts made so far (scheduled ones: a manual resend does not count against the schedule). */
  attempts: number;
  /** When the next attempt is due (emulator time), or null when none is scheduled. */
  nextAttemptAtMillis: number | null;
  /** A resend asked for (its attempt is recorded as manual). */
  manual: boolean;
  seq: number;
}

export interface SvixAttemptRecord {
  /** atmpt_… */
  id: string;
  appId: string;
  msgId: string;
  endpointId: string;
  url: string;
  /** The endpoint's answer (truncated), or why there was none. */
  response: string;
  /** 0 when no answer came (unreachable, timed out). */
  responseStatusCode: number;
  responseDurationMs: number;
  status: SvixStatus;
  /** 0 scheduled, 1 manual (a resend). */
  triggerType: 0 | 1;
  timestampMillis: number;
  seq: number;
}

/** What the dashboard's svix-token hands out: a token for one application's API. */
export interface SvixTokenRecord {
  token: string;
  appId: string;
  createdAtMillis: number;
}
