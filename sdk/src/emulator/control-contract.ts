import type { z } from "zod";
import * as s from "./control-schemas.ts";

/**
 * The emulator's control plane: every JSON endpoint under `/__emulator` with its method, path, query, body and answer.
 * The fake provider's control routes parse with these schemas and the one client (control-client.ts) is typed by them.
 *
 * Why here, in the SDK package under `@authsim/sdk/emulator`: every party to the control plane already depends on the
 * SDK and nothing else in common — the fake provider (which serves it), the fixtures loader (which the fake provider
 * itself depends on, so the contract cannot live in the fake provider without a cycle), the dashboard (a browser
 * bundle: this module is zod and constants only, no server code), the conformance suites (which run against any URL)
 * and the React kit's tests. It is a directory of its own, not `contract/`, because `contract/` is the real service's
 * wire and these endpoints exist only on authsim.
 *
 * HTML pages under the prefix (the mock identity provider, checkout and onboarding pages, the API reference, the
 * dashboard and hosted assets) are pages a browser visits, not calls a client makes; they are not listed.
 */
export const CONTROL_PREFIX = "/__emulator";

export type ControlMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A query as the server reads it: a camel-case schema, and each field's name in the URL. */
export interface ControlQuery<S extends z.ZodObject = z.ZodObject> {
  schema: S;
  names: { readonly [K in keyof z.output<S>]-?: string };
}

export interface ControlEndpoint {
  method: ControlMethod;
  /** Under CONTROL_PREFIX; `:name` segments are path parameters. */
  path: string;
  query?: ControlQuery;
  body?: z.ZodType;
  /** The answer of a success (2xx); failures answer `controlFailure` (control-schemas.ts). */
  response: z.ZodType;
  /** The success status, when not 200. */
  status?: 201;
  /** Served by the CLI's dev server only (it needs a file or the hosted pages), not by an in-process provider. */
  devServerOnly?: true;
}

const query = <S extends z.ZodObject>(schema: S, names: ControlQuery<S>["names"]): ControlQuery<S> => ({
  schema,
  names,
});

const outboxQuery = query(s.outboxQuery, {
  to: "to",
  kind: "kind",
  projectId: "project_id",
  afterSeq: "after_seq",
  timeoutMs: "timeout_ms",
});
const webhookAttemptsQuery = query(s.webhookAttemptsQuery, {
  projectId: "project_id",
  endpointId: "endpoint_id",
  msgId: "msg_id",
  eventType: "event_type",
  status: "status",
  afterSeq: "after_seq",
  timeoutMs: "timeout_ms",
});

export const controlEndpoints = {
  // State as a whole: back to the seed, out to a snapshot and in again.
  reset: { method: "POST", path: "/reset", response: s.controlSuccess },
  snapshot: { method: "GET", path: "/snapshot", response: s.providerSnapshot },
  restore: { method: "POST", path: "/restore", body: s.providerSnapshot, response: s.controlSuccess },
  saveSnapshot: { method: "POST", path: "/snapshot/save", response: s.snapshotSaved, devServerOnly: true },

  // The emulated clock.
  clock: { method: "GET", path: "/clock", response: s.clockView },
  advanceClock: { method: "POST", path: "/clock/advance", body: s.clockAdvanceBody, response: s.clockView },
  freezeClock: { method: "POST", path: "/clock/freeze", body: s.clockFreezeBody, response: s.clockView },
  unfreezeClock: { method: "POST", path: "/clock/unfreeze", response: s.clockView },
  // Time-based work (docs/emulator.md, "Timed work"): what waits for which instant; run what is due now; wait until
  // nothing runs. Moving the clock runs what became due before it answers.
  work: { method: "GET", path: "/work", response: s.pendingWork },
  runDueWork: { method: "POST", path: "/work/run", response: s.pendingWork },
  waitForIdleWork: { method: "POST", path: "/work/idle", response: s.pendingWork },

  // Webhooks: the project's endpoints, messages and delivery attempts; add an endpoint, resend, wait for an attempt
  // (408 when none comes within timeout_ms).
  webhookEndpoints: {
    method: "GET",
    path: "/webhooks/endpoints",
    query: query(s.webhookProjectQuery, { projectId: "project_id" }),
    response: s.listOf(s.webhookEndpoint),
  },
  addWebhookEndpoint: {
    method: "POST",
    path: "/webhooks/endpoints",
    body: s.webhookEndpointInput,
    response: s.webhookEndpoint,
    status: 201,
  },
  webhookMessages: {
    method: "GET",
    path: "/webhooks/messages",
    query: query(s.webhookProjectQuery, { projectId: "project_id" }),
    response: s.listOf(s.webhookMessage),
  },
  webhookAttempts: {
    method: "GET",
    path: "/webhooks/attempts",
    query: webhookAttemptsQuery,
    response: s.listOf(s.webhookAttempt),
  },
  waitForWebhookAttempt: {
    method: "GET",
    path: "/webhooks/attempts/wait",
    query: webhookAttemptsQuery,
    response: s.webhookAttempt,
  },
  resendWebhook: { method: "POST", path: "/webhooks/resend", body: s.webhookResendBody, response: s.controlSuccess },

  // Sent email. `waitForEmail` answers 408 when none matches within timeout_ms.
  emails: { method: "GET", path: "/outbox", query: outboxQuery, response: s.outboxList },
  waitForEmail: { method: "GET", path: "/outbox/wait", query: outboxQuery, response: s.sentEmail },
  clearEmails: { method: "DELETE", path: "/outbox", response: s.controlSuccess },
  // Emails not delivered yet (preparing in the queue, scheduled, paused), with the instant each is due.
  queuedEmails: {
    method: "GET",
    path: "/outbox/queued",
    query: query(s.queuedEmailsQuery, { projectId: "project_id" }),
    response: s.listOf(s.queuedEmail),
  },

  // Fault rules on /api/v1.
  faults: { method: "GET", path: "/faults", response: s.listOf(s.faultRule) },
  addFault: { method: "POST", path: "/faults", body: s.faultRuleInput, response: s.faultRule, status: 201 },
  clearFaults: { method: "DELETE", path: "/faults", response: s.controlSuccess },
  removeFault: { method: "DELETE", path: "/faults/:id", response: s.controlSuccess },

  // Projects, their keys and config.
  projects: { method: "GET", path: "/projects", response: s.listOf(s.projectEntry) },
  createProject: {
    method: "POST",
    path: "/projects",
    body: s.projectCreateBody,
    response: s.projectEntry,
    status: 201,
  },
  updateProject: { method: "PATCH", path: "/projects/:project_id", body: s.projectPatchBody, response: s.projectEntry },
  clientConfig: { method: "GET", path: "/projects/:project_id/client-config", response: s.clientConfig },
  paymentsConfig: { method: "GET", path: "/projects/:project_id/payments-config", response: s.paymentsConfigView },
  setPaymentsConfig: {
    method: "PUT",
    path: "/projects/:project_id/payments-config",
    body: s.paymentsConfigInput,
    response: s.paymentsConfigView,
  },
  // The payment provider's browser side: a setup intent confirmed with a card (its client secret is the credential).
  confirmSetupIntent: {
    method: "POST",
    path: "/payments/setup-intents/confirm",
    body: s.setupIntentConfirmBody,
    response: s.setupIntentView,
  },

  // The request log of /api/v1, and what the dashboard's tabs count.
  requests: {
    method: "GET",
    path: "/requests",
    query: query(s.requestsQuery, {
      method: "method",
      path: "path",
      projectId: "project_id",
      status: "status",
      knownError: "known_error",
      afterSeq: "after_seq",
      limit: "limit",
      excludeDashboard: "exclude_dashboard",
    }),
    response: s.requestLogList,
  },
  clearRequests: { method: "DELETE", path: "/requests", response: s.controlSuccess },
  counts: {
    method: "GET",
    path: "/counts",
    query: query(s.countsQuery, { projectId: "project_id" }),
    response: s.counts,
  },

  // Fixtures: export (all projects, or those named) and load through the public API.
  fixture: {
    method: "GET",
    path: "/fixture",
    query: query(s.fixtureQuery, { projectIds: "project_id" }),
    response: s.fixtureDocument,
  },
  loadFixture: {
    method: "POST",
    path: "/fixture",
    body: s.fixtureDocument,
    response: s.fixtureLoadReport,
    status: 201,
  },

  // Sign-in helpers: the authenticator app's code, fixed sign-in OTPs.
  totp: { method: "GET", path: "/users/:user_id/totp", response: s.totpView },
  fixedOtp: { method: "GET", path: "/fixed-otp", response: s.fixedOtpRules },
  setFixedOtp: { method: "PUT", path: "/fixed-otp", body: s.fixedOtpRules, response: s.fixedOtpRules },

  // The offline model's queued answers (texts or failures), taken one per model call, oldest first.
  aiScript: { method: "GET", path: "/ai/script", response: s.aiScript },
  addAiScript: { method: "POST", path: "/ai/script", body: s.aiScriptInput, response: s.aiScript, status: 201 },
  clearAiScript: { method: "DELETE", path: "/ai/script", response: s.controlSuccess },

  // The OpenAPI document of /api/v1 (left open: openapi/ in the fake provider builds it from the contract).
  openApi: { method: "GET", path: "/openapi.json", response: s.openApiDocument },
  // The hosted pages' config (authsim/hosted/serve.ts).
  hostedConfig: { method: "GET", path: "/hosted/config.json", response: s.hostedConfig, devServerOnly: true },
} as const satisfies Record<string, ControlEndpoint>;

export type ControlEndpoints = typeof controlEndpoints;
export type ControlEndpointName = keyof ControlEndpoints;

/** The full path of an endpoint (with its `:name` segments), e.g. for mounting it. */
export const controlPath = (name: ControlEndpointName): string => `${CONTROL_PREFIX}${controlEndpoints[name].path}`;

/** The answer of an endpoint, typed. */
export type ControlAnswer<K extends ControlEndpointName> = z.output<ControlEndpoints[K]["response"]>;
