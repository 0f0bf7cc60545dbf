import type { RandomSource } from "@authsim/sdk/runtime";
import type { CryptoBackend } from "../auth/crypto-backend.ts";
import type { Auth } from "../auth/caller.ts";
import type { Tables } from "../store/store.ts";
import type { EndUserIpInfo } from "../store/account-records.ts";
import type { FixedOtpRule } from "./sign-in/fixed-otp.ts";
import type { HeldOAuthTokens } from "./oauth/held-oauth-tokens.ts";

/**
 * A mock OAuth server serving the shared-keys providers (emulator/mock-oauth/server.ts), as the real service's development setup
 * has one: authorize sends the browser to `origin`, which sends it back to `callbackBaseUrl`'s callback; connected
 * accounts of shared providers hand out its tokens.
 */
export interface MockOAuthServerSettings {
  /** e.g. http://localhost:8114 */
  origin: string;
  /** The API's base URL the provider's callback is on (e.g. http://localhost:8102), as registered at the mock server. */
  callbackBaseUrl: string;
  tokens: HeldOAuthTokens;
}

/** What the emulator was configured with (createFakeProvider options, resolved). */
export interface ProviderSettings {
  /** The API's public base URL (no /api/v1): the host in token issuers. */
  apiBaseUrl: string;
  accessTokenLifetimeSeconds: number;
  passwordHashIterations: number;
  /** Passkey ceremonies use the fixed challenge "MOCK" (createFakeProvider's hardcodedPasskeyChallenge; tests only). */
  hardcodedPasskeyChallenge?: boolean;
  /** Password hashing and token signatures (domain/auth/crypto-backend.ts); Web Crypto when absent. */
  crypto?: CryptoBackend;
  /** Addresses whose sign-in OTP is fixed (domain/ops/sign-in/fixed-otp.ts); changeable at run time (PUT /__emulator/fixed-otp). */
  fixedOtp?: readonly FixedOtpRule[];
  /**
   * Where purchase URLs point (the real service's dashboard URL, whose /purchase/{code} page runs checkout). Unset, they
   * open the emulator's own checkout page (emulator/control/payments.ts).
   */
  dashboardUrl?: string;
  /**
   * The storage endpoint uploaded images are named under (`<storageUrl>/stack-storage/<key>`), as the real service's
   * STACK_S3_ENDPOINT (its development setup's http://localhost:<prefix>21). Unset, the API's own origin at /__storage
   * (domain/ops/storage/uploaded-images.ts), which `provider.fetch` serves too.
   */
  storageUrl?: string;
  /** The secret payment-provider webhooks are signed with (domain/ops/payments/stripe-webhooks.ts); the real service's development value when unset. */
  stripeWebhookSecret?: string;
  /** How many emails the outbox keeps; the oldest are dropped past it (domain/ops/emails/outbox.ts). Default 10,000. */
  outboxCapacity?: number;
  /**
   * How long a queued email waits before the email queue renders it (domain/ops/emails/email-queue.ts): 0 (the default) renders it
   * in the request that queued it; more, and the provider renders due emails before answering later requests.
   */
  emailQueueDelayMillis?: number;
  /** How long an email's own code may run in one render (domain/email/render/sandbox.ts); 5 s when unset. */
  emailRenderTimeLimitMillis?: number;
  /** How long a webhook endpoint has to answer an attempt (domain/webhooks/delivery.ts); Svix's 15 s when unset. */
  webhookTimeoutMillis?: number;
  /**
   * Delivery to a project's own mail server over SMTP (domain/ops/emails/smtp-delivery.ts): unset, no connection is
   * opened and the outbox is the mailbox; set, loopback hosts are reached, and the hosts named here too.
   */
  smtpDelivery?: { allowHosts: readonly string[] };
  /** Set while a mock OAuth server is attached (createMockOAuthServer); absent, every provider uses the emulator's page. */
  mockOAuthServer?: MockOAuthServerSettings;
}

/**
 * Everything an operation may read: the tables (inside the request's transaction), the time and the random source.
 * Ops never see the HTTP request.
 */
export interface OpContext {
  tables: Tables;
  now: number;
  random: RandomSource;
  settings: ProviderSettings;
  /**
   * Applies a write now, and again in a transaction of its own if the request fails and is rolled back: for what a
   * refused request must still leave behind (failed code guesses). Everything else a failed request did is undone.
   */
  keepOnFailure(write: (tables: Tables) => void): void;
  /**
   * Work to do once this transaction has committed, with no lock held, before the request answers (rendering emails an
   * operation queued: domain/ops/outside-lock.ts). Dropped if the operation fails.
   */
  afterCommit(work: AfterCommit): void;
  /**
   * Where the end user is, read from the request's forwarding headers by the HTTP layer (api/http/end-user.ts): sessions
   * opened by this request record it (protocol.md §5.7). Absent outside requests or without an address.
   */
  endUser?: EndUserIpInfo;
}

/** Opens a transaction for after-commit work (runOp's, with the same clock, random source and settings). */
export type InTransaction = <R>(operation: (ctx: OpContext) => R | Promise<R>) => Promise<R>;

/** Work registered with ctx.afterCommit (domain/ops/outside-lock.ts): it may open transactions, and holds none while it waits. */
export type AfterCommit = (inTransaction: InTransaction) => Promise<void>;

export interface AuthedContext extends OpContext {
  auth: Auth;
}
