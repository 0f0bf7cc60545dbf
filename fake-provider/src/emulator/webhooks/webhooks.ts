import { runOp, type OpDeps } from "../../domain/run-op.ts";
import {
  appOfProject,
  createEndpoint,
  endpointUrlProblem,
  findEndpoint,
  projectApp,
  resendMessage,
  STATUS,
} from "../../domain/ops/webhooks/webhooks.ts";
import type { SvixAttemptRecord, SvixDeliveryRecord } from "../../domain/store/webhook-records.ts";
import type { Tables } from "../../domain/store/store.ts";
import { waitForCommit } from "../wait-for-commit.ts";

/**
 * Webhooks for tests and tools (in process as `provider.webhooks`, and behind /__emulator/webhooks): a project's
 * endpoints, messages and attempts, adding an endpoint, resending, and waiting for an attempt as one waits for an email.
 */

export interface WebhookEndpoint {
  id: string;
  projectId: string;
  url: string;
  description: string;
  /** whsec_…: what `new Webhook(secret).verify(...)` of the svix package takes. */
  secret: string;
  disabled: boolean;
  filterTypes: string[] | null;
  createdAtMillis: number;
}

export interface WebhookDelivery {
  endpointId: string;
  status: "success" | "pending" | "fail" | "sending";
  attempts: number;
  nextAttemptAtMillis: number | null;
}

export interface WebhookMessage {
  id: string;
  projectId: string;
  eventType: string;
  payload: unknown;
  timestampMillis: number;
  deliveries: WebhookDelivery[];
}

export interface WebhookAttempt {
  id: string;
  projectId: string;
  endpointId: string;
  msgId: string;
  eventType: string;
  url: string;
  /** 0 when no answer came. */
  statusCode: number;
  response: string;
  durationMillis: number;
  status: "success" | "fail";
  manual: boolean;
  atMillis: number;
  /** Its place among all attempts (increasing): `afterSeq` counts from it. */
  seq: number;
}

export interface WebhookFilter {
  projectId?: string;
  endpointId?: string;
  msgId?: string;
  eventType?: string;
  status?: "success" | "fail";
  /** Only attempts after the one with this `seq`. */
  afterSeq?: number;
}

export interface Webhooks {
  /** Registers an endpoint for the project's webhooks (its application made if need be); refuses a URL that is not http(s). */
  addEndpoint(
    projectId: string,
    url: string,
    options?: { description?: string; filterTypes?: string[] },
  ): Promise<WebhookEndpoint>;
  endpoints(projectId: string): WebhookEndpoint[];
  /** Newest first. */
  messages(projectId: string): WebhookMessage[];
  /** Oldest first. */
  attempts(filter?: WebhookFilter): WebhookAttempt[];
  /** The first matching attempt, waiting up to `timeoutMs` (default 5 s, at most 60 s) for one to be recorded. */
  waitFor(filter?: WebhookFilter, options?: { timeoutMs?: number }): Promise<WebhookAttempt>;
  /** One more attempt of the message to the endpoint, at once (recorded as manual). */
  resend(projectId: string, msgId: string, endpointId: string): Promise<void>;
}

export class WebhookError extends Error {
  override readonly name = "WebhookError";
  constructor(
    message: string,
    readonly status: 400 | 404,
  ) {
    super(message);
  }
}

export class WebhookTimeoutError extends Error {
  override readonly name = "WebhookTimeoutError";
}

const STATUS_NAMES = {
  [STATUS.success]: "success",
  [STATUS.pending]: "pending",
  [STATUS.fail]: "fail",
  [STATUS.sending]: "sending",
} as const;

const projectOfApp = (tables: Tables, appId: string) => tables.svixApps.get(appId)?.uid ?? appId;

function endpointOf(
  tables: Tables,
  e: {
    id: string;
    appId: string;
    url: string;
    description: string;
    secret: string;
    disabled: boolean;
    filterTypes: string[] | null;
    createdAtMillis: number;
  },
): WebhookEndpoint {
  return {
    id: e.id,
    projectId: projectOfApp(tables, e.appId),
    url: e.url,
    description: e.description,
    secret: e.secret,
    disabled: e.disabled,
    filterTypes: e.filterTypes,
    createdAtMillis: e.createdAtMillis,
  };
}

const deliveryOf = (d: SvixDeliveryRecord): WebhookDelivery => ({
  endpointId: d.endpointId,
  status: STATUS_NAMES[d.status],
  attempts: d.attempts,
  nextAttemptAtMillis: d.nextAttemptAtMillis,
});

function attemptOf(tables: Tables, a: SvixAttemptRecord): WebhookAttempt {
  return {
    id: a.id,
    projectId: projectOfApp(tables, a.appId),
    endpointId: a.endpointId,
    msgId: a.msgId,
    eventType: tables.svixMessages.get(a.msgId)?.eventType ?? "",
    url: a.url,
    statusCode: a.responseStatusCode,
    response: a.response,
    durationMillis: a.responseDurationMs,
    status: a.status === STATUS.success ? "success" : "fail",
    manual: a.triggerType === 1,
    atMillis: a.timestampMillis,
    seq: a.seq,
  };
}

function matches(a: WebhookAttempt, f: WebhookFilter): boolean {
  return (
    (f.projectId === undefined || a.projectId === f.projectId) &&
    (f.endpointId === undefined || a.endpointId === f.endpointId) &&
    (f.msgId === undefined || a.msgId === f.msgId) &&
    (f.eventType === undefined || a.eventType === f.eventType) &&
    (f.status === undefined || a.status === f.status) &&
    (f.afterSeq === undefined || a.seq > f.afterSeq)
  );
}

/** `scheduled`: called when an attempt was scheduled outside a request (a resend), so the provider's timed work runs it. */
export function createWebhooks(deps: OpDeps, scheduled: () => void): Webhooks {
  const tables = () => deps.store.read;
  const attempts = (filter: WebhookFilter = {}) =>
    [...tables().svixAttempts.values()]
      .sort((a, b) => a.seq - b.seq)
      .map((a) => attemptOf(tables(), a))
      .filter((a) => matches(a, filter));
  return {
    async addEndpoint(projectId, url, options = {}) {
      const problem = endpointUrlProblem(url);
      if (problem) throw new WebhookError(problem, 400);
      if (!tables().projects.has(projectId)) throw new WebhookError(`No project ${projectId}`, 404);
      const endpoint = await runOp(deps, (ctx) => createEndpoint(ctx, projectApp(ctx, projectId), { url, ...options }));
      return endpointOf(tables(), endpoint);
    },
    endpoints(projectId) {
      const app = tables().svixApps.lookup("uid", projectId);
      if (!app) return [];
      return [...tables().svixEndpoints.values()]
        .filter((e) => e.appId === app.id)
        .sort((a, b) => a.seq - b.seq)
        .map((e) => endpointOf(tables(), e));
    },
    messages(projectId) {
      const app = tables().svixApps.lookup("uid", projectId);
      if (!app) return [];
      const deliveries = [...tables().svixDeliveries.values()].sort((a, b) => a.seq - b.seq);
      return [...tables().svixMessages.values()]
        .filter((m) => m.appId === app.id)
        .sort((a, b) => b.seq - a.seq)
        .map((m) => ({
          id: m.id,
          projectId,
          eventType: m.eventType,
          payload: m.payload,
          timestampMillis: m.timestampMillis,
          deliveries: deliveries.filter((d) => d.msgId === m.id).map(deliveryOf),
        }));
    },
    attempts,
    waitFor(filter = {}, options = {}) {
      const timeoutMs = Math.min(options.timeoutMs ?? 5_000, 60_000);
      return waitForCommit(
        deps.store,
        () => attempts(filter)[0],
        timeoutMs,
        () => new WebhookTimeoutError(`No webhook attempt matching ${JSON.stringify(filter)} within ${timeoutMs} ms.`),
      );
    },
    async resend(projectId, msgId, endpointId) {
      await runOp(deps, (ctx) => {
        const app = appOfProject(ctx, projectId);
        const message = app ? ctx.tables.svixMessages.get(msgId) : undefined;
        const endpoint = app ? findEndpoint(ctx, app, endpointId) : undefined;
        if (!app || !message || message.appId !== app.id)
          throw new WebhookError(`No webhook message ${msgId} in project ${projectId}`, 404);
        if (!endpoint) throw new WebhookError(`No webhook endpoint ${endpointId} in project ${projectId}`, 404);
        resendMessage(ctx, message, endpoint);
      });
      scheduled();
    },
  };
}
