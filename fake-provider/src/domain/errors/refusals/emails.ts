import { CLI_MESSAGES } from "@authsim/sdk/contract";
import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of emails: content, queue, outbox, managed domains, Resend (domain/ops/emails/). */
export const emailsRefusals = {
  // domain/ops/emails/email-content.ts
  cannotDeleteCurrentlyActiveEmail: {
    status: 400,
    text: "Cannot delete the currently active email theme. Please select a different theme first.",
    operations: ["deleteEmailTheme"],
  },
  // domain/ops/emails/email-cron.ts
  unauthorized: {
    status: 401,
    text: "Unauthorized",
    operations: ["emailQueueStep", "failedEmailsDigest", "dbSyncPoller", "dbSyncSequencer"],
  },
  // domain/ops/emails/email-outbox.ts
  outboxEmailNotFound: { status: 404, text: "Email not found", operations: ["getOutboxEmail", "updateOutboxEmail"] },
  invalidLimitParameter: { status: 400, text: "Invalid limit parameter", operations: ["listOutboxEmails"] },
  limitCannotExceed: { status: 400, text: (MAX_LIMIT: Arg) => `Limit cannot exceed ${MAX_LIMIT}` },
  // domain/ops/emails/email-queue.ts
  notificationCategoryFoundName: { status: 400, text: "Notification category not found with given name" },
  // domain/ops/emails/managed-email.ts
  subdomainAlreadyExistsResendIf: {
    status: 409,
    text: "This subdomain already exists in Resend. If this is from another project, choose a different subdomain.",
    operations: ["setupManagedEmail"],
  },
  subdomainAlreadyTrackedDifferentSender: {
    status: 409,
    text: "This subdomain is already tracked with a different sender local part",
    operations: ["setupManagedEmail"],
  },
  managedDomainSetupFoundProject: {
    status: 404,
    text: "Managed domain setup not found for this project/branch",
    operations: ["checkManagedEmail"],
  },
  managedDomainFoundProjectBranch: {
    status: 404,
    text: "Managed domain not found for this project/branch",
    operations: ["applyManagedEmail", "deleteManagedEmail"],
  },
  managedDomainVerifiedYet: {
    status: 409,
    text: "Managed domain is not verified yet",
    operations: ["applyManagedEmail"],
  },
  cannotDeleteManagedDomainThat: {
    status: 409,
    text: "Cannot delete a managed domain that is currently in use for sending email",
    operations: ["deleteManagedEmail"],
  },
  // domain/ops/emails/resend-webhooks.ts (the last is the emulator's own: upstream fails with an internal error)
  invalidResendWebhookSignature: {
    status: 400,
    text: "Invalid Resend webhook signature",
    operations: ["resendWebhook"],
  },
  invalidResendWebhookJson: {
    status: 400,
    text: "Invalid JSON payload in Resend webhook",
    operations: ["resendWebhook"],
  },
  resendWebhookMissingDomainFields: {
    status: 400,
    text: "Resend webhook payload missing required domain fields",
    operations: ["resendWebhook"],
  },
  invalidCliLoginCode: { status: 400, text: CLI_MESSAGES.invalidLoginCode, operations: ["cliComplete"] },
  subdomainNotFullyQualified: {
    status: 400,
    text: "subdomain must be a fully-qualified domain name like mail.example.com",
    operations: ["setupManagedEmail", "checkManagedEmail"],
  },
  invalidSenderLocalPart: {
    status: 400,
    text: "sender_local_part is invalid",
    operations: ["setupManagedEmail", "checkManagedEmail"],
  },
  themeNotFound: {
    status: 404,
    text: "No theme found with given id",
    operations: ["getEmailTheme", "updateEmailTheme", "deleteEmailTheme"],
  },
  themeNotFoundToRender: { status: 400, text: "No theme found with given id", operations: ["renderEmail"] },
  templateNotFound: {
    status: 404,
    text: "No template found with given id",
    operations: ["updateEmailTemplate", "deleteEmailTemplate"],
  },
  templateNotFoundToRender: { status: 400, text: "No template found with given id", operations: ["renderEmail"] },
  templateNotFoundToSend: { status: 400, text: "No template found with given template_id", operations: ["sendEmail"] },
  defaultTemplateNotFound: { status: 400, text: (templateId: Arg) => `Default email template ${templateId} not found` },
  draftNotFound: {
    status: 404,
    text: "No draft found with given id",
    operations: ["getEmailDraft", "updateEmailDraft", "deleteEmailDraft"],
  },
  draftNotFoundToSend: { status: 400, text: "No draft found with given draft_id", operations: ["sendEmail"] },
} as const satisfies Readonly<Record<string, Refusal>>;
