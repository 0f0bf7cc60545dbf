import { z } from "zod";
import { restrictedReason } from "./common.ts";
import { defineOperations, json } from "../define-operations.ts";

/**
 * POST /internal/onboarding/preview-affected-users (admin only): before an admin turns on an onboarding requirement,
 * which users it would restrict (fake-provider domain/ops/emails/onboarding-preview.ts).
 */

/**
 * `limit` (default 10) is read the way upstream reads it, as the integer a string starts with (so "5abc" is 5 and "-2"
 * counts from the end). A value with no leading integer is refused here: upstream has no number to give its query then
 * and fails with a 500, which the emulator never answers.
 */
export const previewAffectedUsersQuery = z.strictObject({
  limit: z
    .string()
    .regex(/^\s*[+-]?\d/, "must start with an integer")
    .optional(),
});

/** The proposed onboarding settings; a setting left out keeps its current value. */
export const previewAffectedUsersBody = z.strictObject({
  onboarding: z.strictObject({ require_email_verification: z.boolean().optional() }),
});

export const affectedUser = z.object({
  id: z.string(),
  display_name: z.string().nullable(),
  primary_email: z.string().nullable(),
  restricted_reason: restrictedReason,
});
export const previewAffectedUsersResponse = z.object({
  affected_users: z.array(affectedUser),
  total_affected_count: z.number(),
});
export type PreviewAffectedUsersJson = z.infer<typeof previewAffectedUsersResponse>;

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const onboardingOperations = defineOperations("onboarding", {
  // Who an onboarding requirement would restrict, before an admin turns it on (areas/onboarding.ts).
  previewAffectedUsers: {
    method: "POST",
    path: "/internal/onboarding/preview-affected-users",
    access: "admin",
    query: previewAffectedUsersQuery,
    body: previewAffectedUsersBody,
    errors: [],
    responses: [json(previewAffectedUsersResponse)],
  },
});
