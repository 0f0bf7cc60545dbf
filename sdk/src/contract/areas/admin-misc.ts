import { z } from "zod";
import { millis, queryBoolean } from "./common.ts";

/** The rest of the admin surface (spec §7 Admin; protocol.md §5.14, §6.5): metrics, the webhook token, AI chat threads. */

export const metricsQuery = z.strictObject({ include_anonymous: queryBoolean.optional() });

const dailyCount = z.object({ date: z.string(), activity: z.number().int().nonnegative() });
const metricsUser = z.object({
  id: z.string(),
  display_name: z.string().nullable(),
  primary_email: z.string().nullable(),
  signed_up_at_millis: millis,
  last_active_at_millis: millis,
});

/** Dashboard metrics computed from the project's state (dates are UTC days, YYYY-MM-DD, oldest first). */
export const metricsResponse = z.object({
  total_users: z.number().int().nonnegative(),
  daily_users: z.array(dailyCount),
  daily_active_users: z.array(dailyCount),
  users_by_country: z.record(z.string(), z.number().int().nonnegative()),
  recently_registered: z.array(metricsUser),
  recently_active: z.array(metricsUser),
  login_methods: z.array(z.object({ method: z.string(), count: z.number().int().nonnegative() })),
});
export type MetricsJson = z.infer<typeof metricsResponse>;

/** POST /webhooks/svix-token (protocol.md §5.14): `{}` in, a token for the webhook portal out. */
export const svixTokenRequest = z.union([z.undefined(), z.strictObject({})]);
export const svixTokenResponse = z.object({ token: z.string(), url: z.string().optional() });

/** /internal/ai-chat/{thread_id}: a stored conversation. The emulator answers locally, with no model. */
export const aiChatParams = z.strictObject({ thread_id: z.string().min(1).max(256) });
export const aiChatMessage = z.looseObject({ role: z.string(), content: z.unknown() });
export const aiChatCreate = z.strictObject({
  context_type: z.enum(["email-theme", "email-template", "email-draft"]).optional(),
  messages: z.array(aiChatMessage),
});
export const aiChatCreateResponse = z.object({ content: z.array(z.object({ type: z.literal("text"), text: z.string() })) });
export const aiChatSave = z.strictObject({ message: z.unknown() });
export const aiChatMessages = z.object({ messages: z.array(z.unknown()) });
