import { z } from "zod";
import {
  adminProjectConfigUpdate,
  clientProject,
  dataVaultConfig,
  isKnownErrorCode,
  knownErrorSpec,
  paymentMethodSummary,
  paymentsCatalogue,
  uuidV4,
} from "../contract/index.ts";

/**
 * The bodies, queries and answers of the emulator's control plane (`/__emulator/*`, control-contract.ts lists the
 * endpoints). They describe authsim's own endpoints, not the real service's wire, so they sit beside the contract
 * rather than in it; they are zod like the contract's so the fake provider parses with them and clients infer types.
 */

/** The latest instant the emulated clock takes (the end of year 9999): dates past it do not round-trip through ISO. */
export const LATEST_CLOCK_MILLIS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The store snapshot format version a restore accepts. */
export const SNAPSHOT_VERSION = 1;

export const controlSuccess = z.object({ success: z.literal(true) });
/** What a refused control call answers (400/404/408/409): a message, and the schema problems when a body was wrong. */
export const controlFailure = z.looseObject({ error: z.string(), issues: z.array(z.string()).optional() });
export type ControlFailure = z.infer<typeof controlFailure>;

// The clock.
export const clockView = z.object({ now_millis: z.number(), frozen: z.boolean() });
export const clockAdvanceBody = z.strictObject({ millis: z.number().int().nonnegative() });

// Timed work (the email queue, scheduled emails, webhook deliveries and retries): what waits, and for which instant.
export const pendingWorkItem = z.object({
  kind: z.string(),
  what: z.string(),
  count: z.number().int(),
  due_at_millis: z.number(),
});
export const pendingWork = z.object({ now_millis: z.number(), frozen: z.boolean(), items: z.array(pendingWorkItem) });

// Webhooks (the project's Svix application): endpoints, messages with their deliveries, attempts.
export const webhookEndpoint = z.object({
  id: z.string(),
  projectId: z.string(),
  url: z.string(),
  description: z.string(),
  secret: z.string(),
  disabled: z.boolean(),
  filterTypes: z.array(z.string()).nullable(),
  createdAtMillis: z.number(),
});
export const webhookEndpointInput = z.strictObject({
  projectId: z.string().min(1),
  url: z.string().min(1),
  description: z.string().optional(),
  filterTypes: z.array(z.string().min(1)).min(1).optional(),
});
const deliveryStatus = z.enum(["success", "pending", "fail", "sending"]);
export const webhookMessage = z.object({
  id: z.string(),
  projectId: z.string(),
  eventType: z.string(),
  payload: z.unknown(),
  timestampMillis: z.number(),
  deliveries: z.array(
    z.object({
      endpointId: z.string(),
      status: deliveryStatus,
      attempts: z.number(),
      nextAttemptAtMillis: z.number().nullable(),
    }),
  ),
});
export const webhookAttempt = z.object({
  id: z.string(),
  projectId: z.string(),
  endpointId: z.string(),
  msgId: z.string(),
  eventType: z.string(),
  url: z.string(),
  statusCode: z.number(),
  response: z.string(),
  durationMillis: z.number(),
  status: z.enum(["success", "fail"]),
  manual: z.boolean(),
  atMillis: z.number(),
  seq: z.number(),
});
// Emails on their way: waiting to be rendered, scheduled, or paused.
export const queuedEmail = z.object({
  id: z.string(),
  projectId: z.string(),
  to: z.array(z.string()),
  subject: z.string().nullable(),
  status: z.enum(["preparing", "scheduled", "paused"]),
  dueAtMillis: z.number().nullable(),
});
export type QueuedEmailView = z.infer<typeof queuedEmail>;
export const queuedEmailsQuery = z.object({ projectId: z.string().optional() });
export type WebhookEndpointView = z.infer<typeof webhookEndpoint>;
export type WebhookMessageView = z.infer<typeof webhookMessage>;
export type WebhookAttemptView = z.infer<typeof webhookAttempt>;
export type PendingWorkView = z.infer<typeof pendingWork>;
export const webhookProjectQuery = z.object({ projectId: z.string().min(1) });
export const webhookAttemptsQuery = z.object({
  projectId: z.string().optional(),
  endpointId: z.string().optional(),
  msgId: z.string().optional(),
  eventType: z.string().optional(),
  status: z.enum(["success", "fail"]).optional(),
  afterSeq: z.coerce.number().int().nonnegative().optional(),
  timeoutMs: z.coerce.number().int().min(0).max(60_000).optional(),
});
export const webhookResendBody = z.strictObject({
  projectId: z.string().min(1),
  msgId: z.string().min(1),
  endpointId: z.string().min(1),
});
export const clockFreezeBody = z.strictObject({ at_millis: z.number().int().nonnegative().optional() });

// Snapshots: opaque tables (the store's own layout) and the clock's state.
export const providerSnapshot = z.object({
  store: z.object({
    version: z.literal(SNAPSHOT_VERSION),
    tables: z.record(z.string(), z.array(z.tuple([z.string(), z.unknown()]))),
  }),
  clock: z.object({
    offsetMillis: z.number().int().min(-LATEST_CLOCK_MILLIS).max(LATEST_CLOCK_MILLIS),
    frozenAtMillis: z.number().int().min(0).max(LATEST_CLOCK_MILLIS).nullable(),
  }),
});
export type ProviderSnapshotJson = z.infer<typeof providerSnapshot>;
export const snapshotSaved = z.object({ success: z.literal(true), file: z.string() });

// The outbox: every email the emulator sent, in sending order.
export const emailKinds = [
  "email_verification",
  "password_reset",
  "magic_link",
  "team_invitation",
  "sign_in_invitation",
  "custom",
] as const;
export type EmailKind = (typeof emailKinds)[number];
export const outboxQuery = z.object({
  to: z.string().optional(),
  kind: z.enum(emailKinds).optional(),
  projectId: z.string().optional(),
  afterSeq: z.coerce.number().int().nonnegative().optional(),
  timeoutMs: z.coerce.number().int().min(0).max(60_000).optional(),
});
/** A sent email as the outbox lists it (the store's record: camel case; `outbox`, the real service's entry, left open). */
export const sentEmail = z.object({
  id: z.string(),
  projectId: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  kind: z.enum(emailKinds),
  html: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  otp: z.string().nullable(),
  link: z.string().nullable(),
  userId: z.string().nullable(),
  /** The From header as the real service writes it (`"Name" <address>`); absent on emails kept from older snapshots. */
  from: z.string().optional(),
  sentAtMillis: z.number(),
  /** Its place in the outbox, in the order emails were delivered (a queued or scheduled email comes after those delivered before it): what `afterSeq` counts from. */
  seq: z.number(),
  outbox: z.unknown().optional(),
});
export type SentEmail = z.infer<typeof sentEmail>;
export const outboxList = z.object({ items: z.array(sentEmail), dropped: z.number() });

// Fault rules (faults/ in the fake provider): what a rule does to the /api/v1 requests it matches.
const concreteKnownErrorCode = z
  .string()
  .refine((c) => isKnownErrorCode(c) && !knownErrorSpec(c).abstract, "must be a concrete known-error code");
export const faultAction = z.discriminatedUnion("type", [
  /** e.g. 429 with Retry-After, 508 with the INFINITE_LOOP_DETECTED marker, 503. */
  z.strictObject({
    type: z.literal("status"),
    status: z.number().int().min(200).max(599),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string().optional(),
  }),
  z.strictObject({
    type: z.literal("known-error"),
    code: concreteKnownErrorCode,
    details: z.record(z.string(), z.unknown()).optional(),
  }),
  /** Waits, then lets the request through, or on to the next matching rule (latency stacks with its answer). */
  z.strictObject({ type: z.literal("latency"), millis: z.number().int().min(0).max(60_000) }),
  /** The connection is dropped: the client sees a network error. */
  z.strictObject({ type: z.literal("drop") }),
]);
export type FaultAction = z.infer<typeof faultAction>;
export const faultRuleInput = z.strictObject({
  /** Any method when absent. */
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).optional(),
  /** Path under /api/v1, e.g. "/users/me"; `*` matches one segment, a trailing `**` any rest, `:name` one segment. */
  path: z.string().startsWith("/"),
  projectId: z.string().optional(),
  action: faultAction,
  /** How many matching requests it affects; null = until removed. Default 1 (once). */
  times: z.number().int().positive().nullable().optional(),
  /** Chance (0–1) that a matching request is affected, drawn from the provider's random source. Default 1. */
  probability: z.number().min(0).max(1).optional(),
});
export type FaultRuleInput = z.input<typeof faultRuleInput>;
export const faultRule = z.object({
  id: z.string(),
  method: z.string().nullable(),
  path: z.string(),
  projectId: z.string().nullable(),
  action: faultAction,
  remaining: z.number().nullable(),
  probability: z.number(),
  hits: z.number(),
});
export type FaultRule = z.infer<typeof faultRule>;

// Projects and their keys.
/**
 * The project config a fixture or the project endpoints may set: the flags and lists of the admin update (spec §3),
 * secrets left out, plus the emulator-only `anonymous_enabled`.
 */
export const fixtureProjectConfig = adminProjectConfigUpdate
  .pick({
    sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: true,
    passkey_enabled: true,
    client_team_creation_enabled: true,
    client_user_deletion_enabled: true,
    allow_localhost: true,
    allow_user_api_keys: true,
    allow_team_api_keys: true,
    domains: true,
    create_team_on_sign_up: true,
    team_creator_default_permissions: true,
    team_member_default_permissions: true,
    user_default_permissions: true,
    oauth_account_merge_strategy: true,
  })
  .extend({
    /**
     * Whether POST /auth/anonymous/sign-up is open (protocol.md §7.8; closed → ANONYMOUS_ACCOUNTS_NOT_ENABLED). Upstream
     * decides it per environment and no admin API sets it, so only an emulator target takes it (default: open).
     */
    anonymous_enabled: z.boolean().optional(),
  });
export type FixtureProjectConfig = z.infer<typeof fixtureProjectConfig>;
export const projectKeys = z.strictObject({
  publishable_client_key: z.string().min(1),
  secret_server_key: z.string().min(1),
  super_secret_admin_key: z.string().min(1),
});
export type ProjectKeys = z.infer<typeof projectKeys>;
export const projectCreateBody = z.strictObject({
  id: uuidV4.optional(),
  display_name: z.string().min(1).max(256),
  description: z.string().max(1024).nullable().optional(),
  config: fixtureProjectConfig.optional(),
  keys: projectKeys.optional(),
});
export const projectPatchBody = z.strictObject({
  display_name: z.string().min(1).max(256).optional(),
  description: z.string().max(1024).nullable().optional(),
  config: fixtureProjectConfig.optional(),
});
/** A project as the list and the project endpoints give it: what an app's env needs. */
export const projectEntry = z.object({
  id: z.string(),
  display_name: z.string(),
  /** Absent from the list's entries (GET /projects), present in the answers of POST and PATCH. */
  description: z.string().nullable().optional(),
  publishable_client_key: z.string().nullable(),
  secret_server_key: z.string().nullable(),
  super_secret_admin_key: z.string().nullable(),
});
export type ProjectEntry = z.infer<typeof projectEntry>;
/** What the hosted pages are served with: the project as any client reads it, and whether localhost is trusted. */
export const clientConfig = z.object({ project: clientProject, allow_localhost: z.boolean() });

// Payments: the catalogue and vault stores of a project.
/** What a seed or PUT …/payments-config may set; a section left out is left as it is. */
export const paymentsConfigInput = z.strictObject({
  payments: paymentsCatalogue.optional(),
  data_vault: dataVaultConfig.optional(),
});
export type PaymentsConfigInput = z.input<typeof paymentsConfigInput>;
export const paymentsConfigView = z.object({ payments: paymentsCatalogue, data_vault: dataVaultConfig });

/**
 * Confirming a setup intent as the payment provider's browser script would (the emulator is the provider): its client
 * secret, and the card the customer typed; each part of the card left out is the provider's default test card's
 * (4242 4242 4242 4242, December five years on).
 */
export const setupIntentCard = z.strictObject({
  number: z.string().min(1).optional(),
  exp_month: z.number().int().min(1).max(12).optional(),
  exp_year: z.number().int().min(2000).max(2100).optional(),
});
export type SetupIntentCard = z.infer<typeof setupIntentCard>;
export const setupIntentConfirmBody = z.strictObject({
  client_secret: z.string().min(1),
  card: setupIntentCard.optional(),
});
/** The intent after confirmation: its id is what set-default takes (`setDefaultPaymentMethodFromSetupIntent(id)`). */
export const setupIntentView = z.object({
  id: z.string(),
  status: z.enum(["requires_payment_method", "succeeded"]),
  customer_type: z.enum(["user", "team"]),
  customer_id: z.string(),
  payment_method: paymentMethodSummary.nullable(),
});
export type SetupIntentView = z.infer<typeof setupIntentView>;

// The request log of /api/v1.
export const requestsQuery = z.object({
  method: z.string().optional(),
  path: z.string().optional(),
  projectId: z.string().optional(),
  status: z
    .string()
    .regex(/^(\d{3}|[1-5]xx)$/i, "an exact status or a class such as 4xx")
    .optional(),
  knownError: z.string().optional(),
  afterSeq: z.coerce.number().int().nonnegative().optional(),
  limit: z.coerce.number().int().positive().optional(),
  excludeDashboard: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional(),
});
export const requestLogEntry = z.object({
  /** Monotonic per provider; survives clearing, so a poller can ask for entries after the last one it saw. */
  seq: z.number(),
  /** When the request arrived, on the provider's (controllable) clock. */
  atMillis: z.number(),
  method: z.string(),
  /** The pathname, secret-shaped segments masked. */
  path: z.string(),
  /** The query string without "?" ("" when none), secret parameters masked. */
  query: z.string(),
  projectId: z.string().nullable(),
  /** The access type the request claimed, valid or not. */
  accessType: z.string().nullable(),
  userId: z.string().nullable(),
  operationId: z.string().nullable(),
  /** The status the client saw; null for a dropped connection. */
  status: z.number().nullable(),
  knownError: z.string().nullable(),
  durationMillis: z.number(),
  /** Why the answer is what it is, in pipeline order. */
  why: z.array(z.string()),
  /** Sent by the emulator's own dashboard, so the UI can hide its own traffic. */
  fromDashboard: z.boolean(),
});
export type RequestLogEntry = z.infer<typeof requestLogEntry>;
export const requestLogList = z.object({ items: z.array(requestLogEntry), capacity: z.number(), dropped: z.number() });
export const countsQuery = z.object({ projectId: z.string().optional() });
export const counts = z.object({ users: z.number(), emails: z.number(), requests: z.number() });

// Fixtures (the fixtures package's documents; the emulator validates them as it loads them).
export const fixtureQuery = z.object({ projectIds: z.array(z.string()).optional() });
export const fixtureDocument = z.looseObject({ version: z.number() });
/** A fixture's load report (fixtures/src/load.ts): left open, it is the loader's to describe. */
export const fixtureLoadReport = z.looseObject({});

// Strong auth and sign-in helpers.
export const totpView = z.object({ code: z.string(), period_seconds: z.number(), valid_until_millis: z.number() });
export const fixedOtpRules = z.strictObject({
  rules: z.array(z.strictObject({ pattern: z.string(), code: z.string() })),
});

/** The hosted pages' config (served by the CLI's dev server): which project they show and with which key. */
export const hostedConfig = z.looseObject({ projectId: z.string(), projectName: z.string() });

/** A list answer. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });
/** An OpenAPI document: its own format, checked by the fake provider's tests, not here. */
export const openApiDocument = z.looseObject({ openapi: z.string() });

/**
 * The offline model's scripted answers (`/__emulator/ai/script`): a text the model answers, or a failure (status and
 * message) its provider answers. Bounded: 100 queued at most (the emulator refuses more), texts up to 100 000 characters.
 */
export const aiScriptedReply = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text"), text: z.string().max(100_000) }),
  z.strictObject({
    type: z.literal("failure"),
    status: z.number().int().min(400).max(599),
    message: z.string().max(10_000),
  }),
]);
export const aiScript = z.object({ replies: z.array(aiScriptedReply) });
export const aiScriptInput = z.strictObject({ replies: z.array(aiScriptedReply).min(1).max(100) });
