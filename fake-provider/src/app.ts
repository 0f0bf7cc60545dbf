import { Hono } from "hono";
import type { Clock } from "@authsim/sdk/runtime";
import type { RandomSource } from "@authsim/sdk/runtime";
import { hashCosts, type HashCost } from "./domain/auth/passwords.ts";
import type { CryptoBackend } from "./domain/auth/crypto-backend.ts";
import { defaultCryptoBackend } from "./domain/auth/default-crypto.ts";
import { pooledCryptoRandom } from "./domain/auth/pooled-random.ts";
import { controllableClock } from "./clock.ts";
import { CONTROL_PREFIX, mountControl } from "./emulator/control/routes.ts";
import { corsHeaders } from "./api/http/cors.ts";
import { json, text } from "./api/http/respond.ts";
import type { ProviderSettings } from "./domain/ops/context.ts";
import { finish, mountOperations, type OperationAnswer } from "./api/routes/mount.ts";
import { applySeed, defaultSeed, type ProviderSeed } from "./seed.ts";
import { createFaults } from "./emulator/faults/faults.ts";
import { createOfflineModelControl } from "./emulator/ai-model/offline-model-control.ts";
import { DroppedConnection, faultMiddleware } from "./emulator/faults/middleware.ts";
import { errorToResponse } from "./api/http/errors-to-response.ts";
import { familyOf } from "./api/http/family.ts";
import { urlOf } from "./api/http/request-url.ts";
import { noteTextBody } from "./api/http/parse.ts";
import { createOutbox } from "./emulator/outbox/outbox.ts";
import { createRequestLog } from "./emulator/request-log/request-log.ts";
import { requestLogMiddleware } from "./emulator/request-log/middleware.ts";
import { explainFailure } from "./emulator/request-log/trace.ts";
import { Store } from "./domain/store/store.ts";
import type { FakeProvider } from "./provider.ts";
import { opContextOn } from "./domain/run-op.ts";
import { checkedFixedOtp, type FixedOtpRule } from "./domain/ops/sign-in/fixed-otp.ts";
import { DEFAULT_OUTBOX_CAPACITY } from "./domain/ops/emails/outbox.ts";
import { createTimedWork } from "./emulator/timed-work/runner.ts";
import { emailQueueWorker } from "./emulator/timed-work/email-queue-worker.ts";
import { webhookWorker } from "./emulator/timed-work/webhook-worker.ts";
import { dbSyncWorker, type DbSyncWorkerOptions } from "./emulator/timed-work/db-sync-worker.ts";
import { smtpDeliveryWorker } from "./emulator/timed-work/smtp-delivery-worker.ts";
import type { SendOverSmtp } from "./domain/ops/emails/smtp-delivery.ts";
import { createWebhooks } from "./emulator/webhooks/webhooks.ts";
import { SVIX_PREFIX, svixApi } from "./api/svix/routes.ts";
import { controlRefusal, hostRefusal, secretKeyRefusal, type HostPolicy } from "./emulator/safety/request-guard.ts";
import { framingGuard } from "./emulator/safety/framing.ts";
import { STORAGE_PREFIX, storageRoutes } from "./emulator/storage/routes.ts";
import { SharedRouter } from "./shared-router.ts";
import { mountLazily } from "./lazy-routes.ts";

function checkedCapacity(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer.`);
  return value;
}

export type { FakeProvider, ProviderSnapshot } from "./provider.ts";

function checkedDelay(value: number): number {
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError("emailQueueDelayMillis must be a non-negative integer.");
  return value;
}

function checkedRenderLimit(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 60_000)
    throw new RangeError("emailRenderTimeLimitMillis must be an integer from 1 to 60000.");
  return value;
}

/** How long a request waits for a running step of the email queue (real time: it bounds a request's latency). */
export { QUEUE_STEP_WAIT_MILLIS } from "./emulator/timed-work/runner.ts";

const API_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export interface FakeProviderOptions {
  /** The time source; wrapped so it can be advanced and frozen. Defaults to the wall clock. */
  clock?: Clock;
  /**
   * Start with the clock frozen at this instant (ms since the epoch), and go back to it on reset: the seed's and every
   * later timestamp then repeat from run to run (the dev server's --deterministic). Advance or unfreeze it as usual.
   */
  frozenAtMillis?: number;
  /** The one random source for ids, tokens, keys and codes. Defaults to Web Crypto. */
  ids?: RandomSource;
  /** Projects to create besides `internal`. Defaults to the dev project of fixtures/. */
  seed?: ProviderSeed;
  /** The public base URL (without /api/v1) that token issuers name. Defaults to http://localhost:8102. */
  apiBaseUrl?: string;
  /** Access-token lifetime; at least 60 s (the published SDK refuses shorter-lived fresh tokens). Default 600 s. */
  accessTokenLifetimeSeconds?: number;
  /** "fast" (default, 10 PBKDF2 iterations: a real salted hash, cheap enough for tests) or "production" (600,000). */
  hashCost?: HashCost;
  /**
   * Every passkey ceremony gets the fixed challenge "MOCK" instead of a random one, as the real service does with its
   * STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: recorded authenticator answers then verify. Tests only.
   */
  hardcodedPasskeyChallenge?: boolean;
  /**
   * Password hashing and ES256 signatures (domain/auth/crypto-backend.ts). Defaults to node:crypto under Node (synchronous,
   * domain/auth/node-crypto.ts) and to Web Crypto elsewhere; a server may inject its own (the dev server signs on a thread).
   */
  crypto?: CryptoBackend;
  /** Called with errors no rule anticipated (they answer 500). Defaults to console.error. */
  onUnexpectedError?: (error: unknown) => void;
  /** How many /api/v1 requests the request log keeps (the oldest fall off). Default 1,000. */
  requestLogCapacity?: number;
  /** How many emails the outbox keeps (the oldest are dropped, and counted, past it). Default 10,000. */
  outboxCapacity?: number;
  /**
   * How long an email queued by send-email (or edited in the outbox) waits before the email queue renders it, by the
   * provider's clock (domain/ops/emails/email-queue.ts). 0, the default, renders it in the request itself; the dev server sets a
   * delay so that clients polling the outbox see it move as the real service's does.
   */
  emailQueueDelayMillis?: number;
  /**
   * How long an email's own code (a template's or theme's TSX) may run in one render before it is stopped with
   * EMAIL_RENDERING_ERROR (domain/email/render/sandbox.ts). Default 5 s (the real service allows 30 s; its own tests
   * busy-wait 2 s on purpose). A suite that checks how a runaway template is refused can set less, up to 60 s.
   */
  emailRenderTimeLimitMillis?: number;
  /**
   * How long a webhook endpoint has to answer an attempt before it counts as failed (emulator/timed-work/webhook-worker.ts).
   * Default 15 s, as Svix.
   */
  webhookTimeoutMillis?: number;
  /**
   * The external database sync (emulator/timed-work/db-sync-worker.ts): how a project's `dbSync.externalDatabases` are
   * reached (PostgreSQL over `pg` in Node by default) and a callback with each sync's outcome.
   */
  dbSync?: DbSyncWorkerOptions;
  /**
   * Delivery to a project's own mail server (`type: "standard"`) over SMTP (domain/ops/emails/smtp-delivery.ts), with
   * the real email queue's retries on the provider's clock. Unset (the default), no connection is opened: the outbox is
   * the mailbox. Set, loopback hosts are reached, and the hosts in `allowHosts`; `send` replaces the SMTP client
   * (nodemailer in Node, package.json `#smtp-client`).
   */
  smtpDelivery?: { allowHosts?: readonly string[]; send?: SendOverSmtp };
  /** Fixed sign-in OTPs by address pattern (domain/ops/sign-in/fixed-otp.ts), e.g. `[{ pattern: "*@example.com", code: "123456" }]`. */
  fixedOtp?: readonly FixedOtpRule[];
  /**
   * Called with every answer a contract operation's route gives (a copy, api/routes/mount.ts), synchronously: e.g. to
   * check each against the contract's response schemas in tests. It must not throw.
   */
  onAnswer?: (answer: OperationAnswer) => void;
  /**
   * Guard the emulator as a server on a laptop (emulator/safety/request-guard.ts): only requests for loopback names or these
   * extra hosts, controls only from the emulator's own pages and as JSON, secret keys only from pages on this machine.
   * The dev server turns it on; in process (tests, msw) it is off, as nothing outside the process reaches the provider.
   */
  requestGuard?: HostPolicy;
  /**
   * Where purchase URLs point: a dashboard whose `/purchase/{code}` page runs checkout (the dev server's `--dev-ports`
   * names its own on <prefix>01). Unset, they open the emulator's checkout page under the API's base URL.
   */
  dashboardUrl?: string;
  /**
   * The storage endpoint uploaded images are named under (`<storageUrl>/stack-storage/<key>`; the dev server's
   * `--dev-ports` serves one on <prefix>21). Unset, the API's own origin at /__storage, served by `provider.fetch` too.
   */
  storageUrl?: string;
}

/** Builds an emulator of the provider's /api/v1 with everything in memory. Cheap: call it once per test if you like. */
export function createFakeProvider(options: FakeProviderOptions = {}): FakeProvider {
  return assemble(options, null);
}

/** A provider seeded afresh, or (a fork) starting from `parent`'s state and clock instead of the seed. */
function assemble(options: FakeProviderOptions, parent: FakeProvider | null): FakeProvider {
  const clock = controllableClock(options.clock);
  const clockStart = { offsetMillis: 0, frozenAtMillis: options.frozenAtMillis ?? null };
  clock.restore(clockStart);
  const random = options.ids ?? pooledCryptoRandom();
  const seed = options.seed ?? defaultSeed;
  const accessTokenLifetimeSeconds = options.accessTokenLifetimeSeconds ?? 600;
  if (accessTokenLifetimeSeconds < 60) throw new RangeError("accessTokenLifetimeSeconds must be at least 60.");
  const settings: ProviderSettings = {
    apiBaseUrl: (options.apiBaseUrl ?? "http://localhost:8102").replace(/\/+$/, ""),
    accessTokenLifetimeSeconds,
    passwordHashIterations: hashCosts[options.hashCost ?? "fast"],
    ...(options.hardcodedPasskeyChallenge ? { hardcodedPasskeyChallenge: true } : {}),
    crypto: options.crypto ?? defaultCryptoBackend,
    fixedOtp: checkedFixedOtp(options.fixedOtp ?? []),
    outboxCapacity: checkedCapacity(options.outboxCapacity ?? DEFAULT_OUTBOX_CAPACITY, "outboxCapacity"),
    ...(options.emailQueueDelayMillis ? { emailQueueDelayMillis: checkedDelay(options.emailQueueDelayMillis) } : {}),
    ...(options.emailRenderTimeLimitMillis !== undefined
      ? { emailRenderTimeLimitMillis: checkedRenderLimit(options.emailRenderTimeLimitMillis) }
      : {}),
    ...(options.webhookTimeoutMillis ? { webhookTimeoutMillis: options.webhookTimeoutMillis } : {}),
    ...(options.dashboardUrl ? { dashboardUrl: options.dashboardUrl } : {}),
    ...(options.storageUrl ? { storageUrl: options.storageUrl } : {}),
    ...(options.smtpDelivery ? { smtpDelivery: { allowHosts: [...(options.smtpDelivery.allowHosts ?? [])] } } : {}),
  };
  const store = new Store();
  const onUnexpectedError = options.onUnexpectedError ?? ((e: unknown) => console.error(e));
  const seedNow = () => {
    store.transactSync((tables) => applySeed(opContextOn(tables, clock.now(), random, settings), seed));
  };
  // A fork starts from its parent's state, sharing its records (Store.shareFrom), rather than from a seed it would
  // throw away.
  if (parent) {
    store.shareFrom(parent.store);
    clock.restore(parent.clock.state());
  } else seedNow();

  const provider: FakeProvider = {
    app: new Hono({ router: new SharedRouter() }),
    fetch: async (input, init) => {
      if (input instanceof Request && init === undefined) return provider.app.fetch(input);
      const request = new Request(input, init);
      // A string body is read from the string (api/http/parse.ts), not back out of the request's stream.
      if (typeof init?.body === "string") noteTextBody(request, init.body);
      return provider.app.fetch(request);
    },
    clock,
    store,
    outbox: createOutbox(
      store,
      () => clock.now(),
      () => (clock.frozen ? 0 : (settings.emailQueueDelayMillis ?? 0)),
    ),
    faults: createFaults(random),
    ai: createOfflineModelControl({ store, clock, random, settings }),
    requestLog: createRequestLog(options.requestLogCapacity),
    work: createTimedWork(
      clock,
      [
        emailQueueWorker({ store, clock, random, settings }),
        webhookWorker({ store, clock, random, settings }, { timeoutMillis: options.webhookTimeoutMillis }),
        dbSyncWorker({ store, clock, random, settings }, options.dbSync),
        smtpDeliveryWorker({ store, clock, random, settings }, options.smtpDelivery?.send),
      ],
      onUnexpectedError,
    ),
    webhooks: createWebhooks({ store, clock, random, settings }, () => provider.work.kick()),
    settings,
    random,
    snapshot: () => ({ store: store.snapshot(), clock: clock.state() }),
    restore: (snapshot) => {
      store.restore(snapshot.store);
      clock.restore(snapshot.clock);
    },
    reset: () => {
      store.restore({ version: 1, tables: {} });
      clock.restore(clockStart);
      provider.faults.clear();
      provider.requestLog.clear();
      seedNow();
    },
    fork: () => {
      // The settings as they are now (the dev server rewrites apiBaseUrl once it knows its port).
      return assemble(
        {
          ...options,
          ids: random,
          apiBaseUrl: settings.apiBaseUrl,
          accessTokenLifetimeSeconds: settings.accessTokenLifetimeSeconds,
          fixedOtp: settings.fixedOtp ?? [],
        },
        provider,
      );
    },
  };

  // Work due at an instant runs when the clock reaches it (an advance, a restore), not only when a request comes.
  clock.onMove(() => provider.work.kick());

  const app = provider.app;
  const guard = options.requestGuard;
  if (guard) {
    // First of all: a refused request is not logged, faulted or answered by anything else.
    app.use("*", async (c, next) => {
      const request = c.req.raw;
      const path = urlOf(request).pathname;
      const refused =
        hostRefusal(request, guard) ??
        (path.startsWith(CONTROL_PREFIX) ? controlRefusal(request) : null) ??
        (path.startsWith("/api/") && request.method !== "OPTIONS" ? secretKeyRefusal(request, guard) : null);
      if (refused) return refused;
      await next();
    });
  }
  // The emulator's HTML pages (not the API's answers) may be framed by their own origin only.
  app.use("*", framingGuard);
  // Timed work (emulator/timed-work/runner.ts): what is due runs before a request's own work (the email queue's step,
  // which renders outside the store's lock: requests that come while it runs wait for it rather than render the same
  // entries again), and what a request queued starts as soon as it has answered.
  app.use("*", async (_c, next) => {
    await provider.work.beforeRequest();
    await next();
    provider.work.kick();
  });
  app.options("/api/*", () => new Response(null, { status: 200, headers: corsHeaders }));
  app.get("/health", () => json({ status: "ok" }, 200, { "access-control-allow-origin": "*" }));
  // Outermost on the API, so faults (latency and dropped connections included) are logged with everything else.
  app.use("/api/*", requestLogMiddleware(provider.requestLog, clock));
  // Latency is about the client's patience, so it waits in real time, not on the emulated clock.
  app.use(
    "/api/*",
    faultMiddleware(
      provider.faults,
      (millis) => new Promise((resolve) => setTimeout(resolve, millis)),
      (response, request) => finish(response, request, random),
    ),
  );
  app.onError((error, c) => {
    // A dropped connection must reach the caller as a failed exchange, not as an answer.
    if (error instanceof DroppedConnection) throw error;
    explainFailure(c.req.raw, "pipeline", error);
    return errorToResponse(error, onUnexpectedError, familyOf(c.req.raw));
  });
  mountOperations(app, { store, clock, random, settings, onUnexpectedError, onAnswer: options.onAnswer });
  // The control plane (with the page at /), Svix's REST API over the webhook state (api/svix/routes.ts) for the
  // dashboard and clients of Svix, and uploaded images (emulator/storage/routes.ts: the bucket the stored URLs name, when
  // no storage port does): built on the first request to any of them (lazy-routes.ts), as most providers get none.
  mountLazily(app, ["/", `${CONTROL_PREFIX}/*`, `${SVIX_PREFIX}/*`, `${STORAGE_PREFIX}/*`], () => {
    const pages = new Hono({ router: new SharedRouter() });
    mountControl(pages, provider);
    pages.route(SVIX_PREFIX, svixApi({ store, clock, random, settings }));
    pages.route(STORAGE_PREFIX, storageRoutes(store));
    return pages;
  });
  app.notFound((c) => {
    const request = c.req.raw;
    // Methods outside the API's set are 405; a known method on an unknown path is the plain-text 404 (protocol.md §1).
    const answer = API_METHODS.has(request.method)
      ? text(
          `404 — this page does not exist in Stack Auth's API.\n\nPlease see the API documentation at https://docs.stack-auth.com, or visit the Stack Auth dashboard at https://app.stack-auth.com.\n\nURL: ${c.req.url}`,
          404,
        )
      : text("Method not allowed", 405);
    return new URL(request.url).pathname.startsWith("/api/") ? finish(answer, request, random) : answer;
  });
  return provider;
}
