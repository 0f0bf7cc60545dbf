export { createFakeProvider, type FakeProvider, type FakeProviderOptions, type ProviderSnapshot } from "./app.ts";
export { controllableClock, type ControllableClock } from "./clock.ts";
export { CONTROL_PREFIX } from "./emulator/control/routes.ts";
export { DEV_SERVER_EMAIL_QUEUE_DELAY_MILLIS } from "./domain/ops/emails/email-queue.ts";
export { defaultSeed, type ProviderSeed } from "./seed.ts";
export { hashCosts, type HashCost } from "./domain/auth/passwords.ts";
export { webCryptoBackend, type CryptoBackend } from "./domain/auth/crypto-backend.ts";
export { defaultCryptoBackend } from "./domain/auth/default-crypto.ts";
export { OutboxTimeoutError, type Outbox, type OutboxFilter } from "./emulator/outbox/outbox.ts";
export {
  WebhookError,
  WebhookTimeoutError,
  type Webhooks,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookFilter,
  type WebhookMessage,
} from "./emulator/webhooks/webhooks.ts";
export type { PendingWork, TimedWork } from "./emulator/timed-work/runner.ts";
export { SVIX_PREFIX, svixPortFetch } from "./api/svix/routes.ts";
export type { SentEmailRecord } from "./domain/store/records.ts";
export type { Faults } from "./emulator/faults/faults.ts";
export type { FaultAction, FaultRule, FaultRuleInput } from "./emulator/faults/rules.ts";
export { DroppedConnection } from "./emulator/faults/middleware.ts";
export { configurePayments, type PaymentsConfigView } from "./emulator/control/payments.ts";
export { devPaymentsSeed, type PaymentsConfigInput } from "./domain/ops/payments/payments-config.ts";
export {
  VirtualAuthenticator,
  VirtualAuthenticatorError,
  type VirtualAuthenticatorOptions,
} from "./domain/webauthn/virtual-authenticator.ts";
export { exportFixture, type ExportOptions } from "./emulator/fixture-export/export.ts";
export type { RequestLog, RequestLogEntry, RequestLogFilter } from "./emulator/request-log/request-log.ts";
export type { FixedOtpRule } from "./domain/ops/sign-in/fixed-otp.ts";
export { openApiDocument, type OpenApiDocument } from "./emulator/openapi/document.ts";
export {
  createMockOAuthServer,
  type MockOAuthServer,
  type MockOAuthServerOptions,
} from "./emulator/mock-oauth/server.ts";
export type { OperationAnswer } from "./api/routes/mount.ts";
export { refusalMatches, refusals, type Refusal, type RefusalId } from "./domain/errors/refusals.ts";
export { purchasePortFetch } from "./emulator/control/payments.ts";
export { inbucketFetch } from "./emulator/outbox/inbucket.ts";
export { STORAGE_PREFIX, storagePortFetch } from "./emulator/storage/routes.ts";
