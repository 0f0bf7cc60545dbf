import { z } from "zod";
import { defineOperations, json } from "../define-operations.ts";

/**
 * Managed email onboarding (admin only): the real service sets up a sending subdomain at its own email provider,
 * tracks its verification, and on request switches the project's email server to it (config `emails.server.provider`
 * "managed"). The emulator gives the answers the real service gives when it runs without provider credentials
 * (fake-provider domain/ops/emails/managed-email.ts).
 */

export const managedEmailStatus = z.enum(["pending_dns", "pending_verification", "verified", "applied", "failed"]);
export type ManagedEmailStatus = z.infer<typeof managedEmailStatus>;

/** POST …/managed-onboarding/setup. The values are checked by the operation (plain-text 400s, as upstream words them). */
export const managedEmailSetupBody = z.strictObject({ subdomain: z.string(), sender_local_part: z.string() });

/** One tracked domain: what setup answers, and each item of the list. */
export const managedEmailDomain = z.object({
  domain_id: z.string(),
  subdomain: z.string(),
  sender_local_part: z.string(),
  name_server_records: z.array(z.string()),
  status: managedEmailStatus,
});
export type ManagedEmailDomainJson = z.infer<typeof managedEmailDomain>;
export const managedEmailDomainList = z.object({ items: z.array(managedEmailDomain) });

/** POST …/managed-onboarding/check: the domain is named by its id and must still match its subdomain and sender. */
export const managedEmailCheckBody = z.strictObject({
  domain_id: z.string(),
  subdomain: z.string(),
  sender_local_part: z.string(),
});
export const managedEmailStatusResponse = z.object({ status: managedEmailStatus });

/** POST …/managed-onboarding/apply. */
export const managedEmailApplyBody = z.strictObject({ domain_id: z.string() });
export const managedEmailApplied = z.object({ status: z.literal("applied") });

/**
 * POST …/managed-onboarding/delete (a later version of the service, which the published kit 2.8.108 calls as
 * deleteManagedEmailDomain): the domain is named by its provider id under this key.
 */
export const managedEmailDeleteBody = z.strictObject({ resend_domain_id: z.string() });
export const managedEmailDeleted = z.object({ status: z.literal("deleted") });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
/** POST /integrations/resend/webhooks: the email provider's event, any body (its signature covers the exact bytes). */
export const resendWebhookBody = z.unknown();
export const resendWebhookResponse = z.object({ received: z.boolean() });

export const managedEmailOperations = defineOperations("managed-email", {
  resendWebhook: {
    method: "POST",
    path: "/integrations/resend/webhooks",
    access: "none",
    body: resendWebhookBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(resendWebhookResponse)],
  },
  // Managed email onboarding: a sending subdomain set up, verified and applied as the email server (areas/managed-email.ts).
  setupManagedEmail: {
    method: "POST",
    path: "/internal/emails/managed-onboarding/setup",
    access: "admin",
    body: managedEmailSetupBody,
    errors: [],
    responses: [json(managedEmailDomain)],
  },
  listManagedEmailDomains: {
    method: "GET",
    path: "/internal/emails/managed-onboarding/list",
    access: "admin",
    errors: [],
    responses: [json(managedEmailDomainList)],
  },
  checkManagedEmail: {
    method: "POST",
    path: "/internal/emails/managed-onboarding/check",
    access: "admin",
    body: managedEmailCheckBody,
    errors: [],
    responses: [json(managedEmailStatusResponse)],
  },
  applyManagedEmail: {
    method: "POST",
    path: "/internal/emails/managed-onboarding/apply",
    access: "admin",
    body: managedEmailApplyBody,
    errors: [],
    responses: [json(managedEmailApplied)],
  },
  deleteManagedEmail: {
    method: "POST",
    path: "/internal/emails/managed-onboarding/delete",
    access: "admin",
    body: managedEmailDeleteBody,
    errors: [],
    responses: [json(managedEmailDeleted)],
  },
});
