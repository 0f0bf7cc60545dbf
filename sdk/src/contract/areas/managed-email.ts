import { z } from "zod";

/**
 * Managed email onboarding (admin only): the real service sets up a sending subdomain at its own email provider,
 * tracks its verification, and on request switches the project's email server to it (config `emails.server.provider`
 * "managed"). The emulator gives the answers the real service gives when it runs without provider credentials
 * (fake-provider domain/ops/managed-email.ts).
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
export const managedEmailCheckBody = z.strictObject({ domain_id: z.string(), subdomain: z.string(), sender_local_part: z.string() });
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
