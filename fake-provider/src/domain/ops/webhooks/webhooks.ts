import { bytesToBase64, type RandomSource } from "@authsim/sdk/runtime";
import { nextSequence } from "../../store/store.ts";
import type {
  SvixAppRecord,
  SvixAttemptRecord,
  SvixDeliveryRecord,
  SvixEndpointRecord,
  SvixMessageRecord,
  SvixStatus,
} from "../../store/webhook-records.ts";
import { SECRET_PREFIX } from "../../webhooks/signature.ts";
import type { OpContext } from "../context.ts";

/**
 * Webhooks as Svix runs them for the real service: an application per project (uid = project id), endpoints with a
 * signing secret, messages, and per message and endpoint a delivery tried on a retry schedule, each attempt recorded.
 * The state lives in the store, so a snapshot, a reset or a rolled-back request covers it; the HTTP of a delivery is
 * the provider's timed work (emulator/timed-work/webhook-worker.ts), outside any transaction.
 */

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A Svix id: its prefix (`app`, `ep`, `msg`, `atmpt`) and 27 base62 characters, as KSUIDs are written. */
export function svixId(prefix: string, random: RandomSource): string {
  const bytes = random.bytes(27);
  let out = `${prefix}_`;
  for (const b of bytes) out += BASE62[b % 62];
  return out;
}

/** A new endpoint secret: whsec_ and 24 random bytes in base64, as Svix makes them. */
export const newEndpointSecret = (random: RandomSource): string => `${SECRET_PREFIX}${bytesToBase64(random.bytes(24))}`;

/**
 * Svix's retry schedule after a failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (eight attempts in all, the
 * first at once). An attempt fails on a status outside 2xx, no answer, or no answer within the timeout.
 */
export const RETRY_DELAYS_MILLIS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

export const STATUS = { success: 0, pending: 1, fail: 2, sending: 3 } as const satisfies Record<string, SvixStatus>;

export const appOfProject = (ctx: OpContext, projectId: string): SvixAppRecord | undefined =>
  ctx.tables.svixApps.lookup("uid", projectId);

/** An application by id or uid (Svix accepts either in its paths). */
export function findApp(ctx: OpContext, idOrUid: string): SvixAppRecord | undefined {
  return ctx.tables.svixApps.get(idOrUid) ?? ctx.tables.svixApps.lookup("uid", idOrUid);
}

export function createApp(
  ctx: OpContext,
  fields: { name: string; uid: string | null; metadata?: Record<string, string>; rateLimit?: number | null },
): SvixAppRecord {
  const app: SvixAppRecord = {
    id: svixId("app", ctx.random),
    uid: fields.uid,
    name: fields.name,
    metadata: fields.metadata ?? {},
    rateLimit: fields.rateLimit ?? null,
    createdAtMillis: ctx.now,
    updatedAtMillis: ctx.now,
    seq: nextSequence(ctx.tables, "svix"),
  };
  ctx.tables.svixApps.set(app.id, app);
  return app;
}

/** The project's application, made the first time (what the real service does before each message and token). */
export const projectApp = (ctx: OpContext, projectId: string): SvixAppRecord =>
  appOfProject(ctx, projectId) ?? createApp(ctx, { name: projectId, uid: projectId });

export interface EndpointFields {
  url: string;
  description?: string;
  filterTypes?: string[] | null;
  channels?: string[] | null;
  disabled?: boolean;
  secret?: string;
  uid?: string | null;
  version?: number;
  rateLimit?: number | null;
  metadata?: Record<string, string>;
}

export function createEndpoint(ctx: OpContext, app: SvixAppRecord, fields: EndpointFields): SvixEndpointRecord {
  const endpoint: SvixEndpointRecord = {
    id: svixId("ep", ctx.random),
    appId: app.id,
    url: fields.url,
    description: fields.description ?? "",
    secret: fields.secret ?? newEndpointSecret(ctx.random),
    disabled: fields.disabled ?? false,
    filterTypes: fields.filterTypes ?? null,
    channels: fields.channels ?? null,
    version: fields.version ?? 1,
    uid: fields.uid ?? null,
    rateLimit: fields.rateLimit ?? null,
    metadata: fields.metadata ?? {},
    createdAtMillis: ctx.now,
    updatedAtMillis: ctx.now,
    seq: nextSequence(ctx.tables, "svix"),
  };
  ctx.tables.svixEndpoints.set(endpoint.id, endpoint);
  return endpoint;
}

export function endpointsOf(ctx: OpContext, appId: string): SvixEndpointRecord[] {
  return [...ctx.tables.svixEndpoints.values()].filter((e) => e.appId === appId).sort((a, b) => a.seq - b.seq);
}

/** An endpoint of the application by id or uid. */
export function findEndpoint(ctx: OpContext, app: SvixAppRecord, idOrUid: string): SvixEndpointRecord | undefined {
  const byId = ctx.tables.svixEndpoints.get(idOrUid);
  if (byId) return byId.appId === app.id ? byId : undefined;
  return endpointsOf(ctx, app.id).find((e) => e.uid === idOrUid);
}

/** Deleting an endpoint cancels its scheduled attempts (its recorded ones stay, as Svix keeps them). */
export function deleteEndpoint(ctx: OpContext, endpoint: SvixEndpointRecord): void {
  for (const d of [...ctx.tables.svixDeliveries.indexed("scheduled")])
    if (d.endpointId === endpoint.id)
      ctx.tables.svixDeliveries.set(d.id, { ...d, nextAttemptAtMillis: null, status: STATUS.fail });
  ctx.tables.svixEndpoints.delete(endpoint.id);
}

/** Whether an endpoint takes a message: enabled, its event-type filter (none: all) and channels (none: all). */
function takes(endpoint: SvixEndpointRecord, message: SvixMessageRecord): boolean {
  if (endpoint.disabled) return false;
  if (endpoint.filterTypes && !endpoint.filterTypes.includes(message.eventType)) return false;
  if (endpoint.channels && !(message.channels ?? []).some((c) => endpoint.channels!.includes(c))) return false;
  return true;
}

function scheduleDelivery(
  ctx: OpContext,
  message: SvixMessageRecord,
  endpoint: SvixEndpointRecord,
  manual: boolean,
): SvixDeliveryRecord {
  const id = `${message.id}:${endpoint.id}`;
  const current = ctx.tables.svixDeliveries.get(id);
  const delivery: SvixDeliveryRecord = current
    ? { ...current, status: STATUS.pending, nextAttemptAtMillis: ctx.now, manual }
    : {
        id,
        appId: message.appId,
        msgId: message.id,
        endpointId: endpoint.id,
        status: STATUS.pending,
        attempts: 0,
        nextAttemptAtMillis: ctx.now,
        manual,
        seq: nextSequence(ctx.tables, "svix"),
      };
  ctx.tables.svixDeliveries.set(id, delivery);
  return delivery;
}

/**
 * How many webhook messages, and attempts, a provider keeps: past these the oldest go, so that a long-running dev server
 * or a load test with an endpoint registered does not grow without bound. A message with an attempt still to come is
 * kept (trimming stops at it): nothing on its way is dropped.
 */
export const WEBHOOK_MESSAGE_CAPACITY = 10_000;
export const WEBHOOK_ATTEMPT_CAPACITY = 50_000;
const DROPPED_COUNTER = "webhook_messages_dropped";

/** Drops the oldest messages past `capacity`, with their deliveries, unless one still has an attempt to come. */
export function trimMessages(ctx: OpContext, capacity = WEBHOOK_MESSAGE_CAPACITY): void {
  while (ctx.tables.svixMessages.size > capacity) {
    const oldest = ctx.tables.svixMessages.oldest();
    if (!oldest) return;
    const deliveries = endpointsOf(ctx, oldest.appId).flatMap(
      (e) => ctx.tables.svixDeliveries.get(`${oldest.id}:${e.id}`) ?? [],
    );
    if (deliveries.some((d) => d.nextAttemptAtMillis !== null || d.status === STATUS.sending)) return;
    for (const d of deliveries) ctx.tables.svixDeliveries.delete(d.id);
    ctx.tables.svixMessages.delete(oldest.id);
    nextSequence(ctx.tables, DROPPED_COUNTER);
  }
}

/** How many messages were dropped past the capacity since the last reset. */
export const droppedWebhookMessages = (ctx: OpContext): number => ctx.tables.counters.get(DROPPED_COUNTER) ?? 0;

function trimAttempts(ctx: OpContext, capacity = WEBHOOK_ATTEMPT_CAPACITY): void {
  while (ctx.tables.svixAttempts.size > capacity) {
    const oldest = ctx.tables.svixAttempts.oldest();
    if (!oldest) return;
    ctx.tables.svixAttempts.delete(oldest.id);
  }
}

/** A message of the application, due at once to each endpoint that takes it (its first attempt is right-away work). */
export function createMessage(
  ctx: OpContext,
  app: SvixAppRecord,
  fields: { eventType: string; payload: unknown; eventId?: string | null; channels?: string[] | null },
): SvixMessageRecord {
  const message: SvixMessageRecord = {
    id: svixId("msg", ctx.random),
    appId: app.id,
    eventType: fields.eventType,
    eventId: fields.eventId ?? null,
    channels: fields.channels ?? null,
    payload: fields.payload,
    timestampMillis: ctx.now,
    seq: nextSequence(ctx.tables, "svix"),
  };
  ctx.tables.svixMessages.set(message.id, message);
  for (const endpoint of endpointsOf(ctx, app.id))
    if (takes(endpoint, message)) scheduleDelivery(ctx, message, endpoint, false);
  trimMessages(ctx);
  return message;
}

/** Resend: one more attempt of the message to the endpoint, at once, recorded as manual. */
export function resendMessage(
  ctx: OpContext,
  message: SvixMessageRecord,
  endpoint: SvixEndpointRecord,
): SvixDeliveryRecord {
  return scheduleDelivery(ctx, message, endpoint, true);
}

/** What one attempt sends: read in a transaction, sent outside it. */
export interface DeliveryJob {
  deliveryId: string;
  msgId: string;
  endpointId: string;
  url: string;
  secret: string;
  body: string;
  /** The emulator's time when it is sent, in seconds (svix-timestamp). */
  timestampSeconds: number;
  manual: boolean;
}

/** The deliveries due at `now`, in the order they were scheduled (by instant, then creation), marked as sending. */
export function takeDueDeliveries(ctx: OpContext): DeliveryJob[] {
  const due = [...ctx.tables.svixDeliveries.indexed("scheduled")]
    .filter((d) => d.nextAttemptAtMillis! <= ctx.now)
    .sort((a, b) => a.nextAttemptAtMillis! - b.nextAttemptAtMillis! || a.seq - b.seq);
  return due.flatMap((d) => takeDelivery(ctx, d) ?? []);
}

/** A delivery marked as sending, and what its attempt sends; null (and the delivery failed) when its message or endpoint is gone. */
export function takeDelivery(ctx: OpContext, d: SvixDeliveryRecord): DeliveryJob | null {
  const message = ctx.tables.svixMessages.get(d.msgId);
  const endpoint = ctx.tables.svixEndpoints.get(d.endpointId);
  if (!message || !endpoint) {
    ctx.tables.svixDeliveries.set(d.id, { ...d, status: STATUS.fail, nextAttemptAtMillis: null });
    return null;
  }
  ctx.tables.svixDeliveries.set(d.id, { ...d, status: STATUS.sending, nextAttemptAtMillis: null });
  return {
    deliveryId: d.id,
    msgId: message.id,
    endpointId: endpoint.id,
    url: endpoint.url,
    secret: endpoint.secret,
    body: JSON.stringify(message.payload),
    timestampSeconds: Math.floor(ctx.now / 1000),
    manual: d.manual,
  };
}

/** How an attempt went. */
export interface AttemptOutcome {
  statusCode: number;
  response: string;
  durationMillis: number;
  /** When the attempt was made (emulator time). */
  startedAtMillis: number;
}

/**
 * Records an attempt and schedules what follows: nothing after a 2xx; otherwise the next retry of the schedule, or the
 * delivery fails once the schedule is spent. A manual resend does not count against the schedule; if it fails, the
 * schedule goes on from where it was.
 */
export function recordAttempt(ctx: OpContext, job: DeliveryJob, outcome: AttemptOutcome): SvixAttemptRecord | null {
  const delivery = ctx.tables.svixDeliveries.get(job.deliveryId);
  const ok = outcome.statusCode >= 200 && outcome.statusCode < 300;
  const attempt: SvixAttemptRecord = {
    id: svixId("atmpt", ctx.random),
    appId: delivery?.appId ?? "",
    msgId: job.msgId,
    endpointId: job.endpointId,
    url: job.url,
    response: outcome.response,
    responseStatusCode: outcome.statusCode,
    responseDurationMs: outcome.durationMillis,
    status: ok ? STATUS.success : STATUS.fail,
    triggerType: job.manual ? 1 : 0,
    timestampMillis: outcome.startedAtMillis,
    seq: nextSequence(ctx.tables, "svix"),
  };
  if (!delivery) return null;
  ctx.tables.svixAttempts.set(attempt.id, attempt);
  trimAttempts(ctx);
  const attempts = job.manual ? delivery.attempts : delivery.attempts + 1;
  const retryIn = RETRY_DELAYS_MILLIS[Math.max(attempts - 1, 0)];
  const next = ok || retryIn === undefined ? null : ctx.now + retryIn;
  const status = ok ? STATUS.success : next !== null ? STATUS.pending : STATUS.fail;
  // A delivery scheduled again while this attempt ran (a resend) keeps that schedule.
  if (delivery.nextAttemptAtMillis !== null) ctx.tables.svixDeliveries.set(delivery.id, { ...delivery, attempts });
  else
    ctx.tables.svixDeliveries.set(delivery.id, {
      ...delivery,
      attempts,
      status,
      nextAttemptAtMillis: next,
      manual: false,
    });
  return attempt;
}

/** Attempts, newest first (Svix lists so), filtered. */
export function attemptsWhere(ctx: OpContext, keep: (a: SvixAttemptRecord) => boolean): SvixAttemptRecord[] {
  return [...ctx.tables.svixAttempts.values()].filter(keep).sort((a, b) => b.seq - a.seq);
}

/** The delivery status of a message to each endpoint it was sent to (the message's "destinations"). */
export const deliveriesOf = (ctx: OpContext, msgId: string): SvixDeliveryRecord[] =>
  [...ctx.tables.svixDeliveries.values()].filter((d) => d.msgId === msgId).sort((a, b) => a.seq - b.seq);

/** Why an endpoint URL is refused (Svix takes absolute http and https URLs only), or null. */
export function endpointUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "invalid url: not an absolute URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return `invalid url: the scheme must be http or https, not ${parsed.protocol.replace(/:$/, "")}`;
  return null;
}
