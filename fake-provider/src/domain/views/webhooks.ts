import type {
  SvixAppRecord,
  SvixAttemptRecord,
  SvixEndpointRecord,
  SvixMessageRecord,
  SvixStatus,
} from "../store/webhook-records.ts";

/** Svix's JSON for its objects (camel case, ISO dates), as its API answers and its libraries read them. */

const iso = (millis: number) => new Date(millis).toISOString();

export const STATUS_TEXT: Record<SvixStatus, string> = { 0: "success", 1: "pending", 2: "fail", 3: "sending" };

export const svixAppView = (app: SvixAppRecord) => ({
  uid: app.uid,
  name: app.name,
  rateLimit: app.rateLimit,
  id: app.id,
  createdAt: iso(app.createdAtMillis),
  updatedAt: iso(app.updatedAtMillis),
  metadata: app.metadata,
});

export const svixEndpointView = (e: SvixEndpointRecord) => ({
  id: e.id,
  description: e.description,
  rateLimit: e.rateLimit,
  uid: e.uid,
  url: e.url,
  version: e.version,
  disabled: e.disabled,
  filterTypes: e.filterTypes,
  channels: e.channels,
  createdAt: iso(e.createdAtMillis),
  updatedAt: iso(e.updatedAtMillis),
  metadata: e.metadata,
});

/** A message; with its payload unless `withContent` is false (Svix's `with_content`). */
export function svixMessageView(m: SvixMessageRecord, withContent = true) {
  return {
    eventId: m.eventId,
    eventType: m.eventType,
    ...(withContent ? { payload: m.payload } : {}),
    channels: m.channels,
    id: m.id,
    timestamp: iso(m.timestampMillis),
  };
}

export function svixAttemptView(a: SvixAttemptRecord, message?: SvixMessageRecord) {
  return {
    url: a.url,
    response: a.response,
    responseStatusCode: a.responseStatusCode,
    responseDurationMs: a.responseDurationMs,
    status: a.status,
    statusText: STATUS_TEXT[a.status],
    triggerType: a.triggerType,
    msgId: a.msgId,
    endpointId: a.endpointId,
    id: a.id,
    timestamp: iso(a.timestampMillis),
    ...(message ? { msg: svixMessageView(message) } : {}),
  };
}
