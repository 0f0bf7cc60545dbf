import { z } from "zod";
import { millis, queryBoolean } from "./common.ts";
import { defineOperations, json, success } from "../define-operations.ts";

/** The rest of the admin surface (spec §7 Admin; protocol.md §5.14, §6.5): metrics, the webhook token, AI chat threads. */

export const metricsQuery = z.strictObject({ include_anonymous: queryBoolean.optional() });

const count = z.number().int().nonnegative();
const dailyCount = z.object({ date: z.string(), activity: count });
/** Daily active users (or teams) split by how they came: new that day, back after a gap, or active the day before. */
const activitySplit = z.object({
  total: z.array(dailyCount),
  new: z.array(dailyCount),
  retained: z.array(dailyCount),
  reactivated: z.array(dailyCount),
});
/** A user as the users routes answer it: the fields the dashboard reads, and the rest of the user passed through. */
const metricsUser = z.looseObject({
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
  auth_overview: z.object({
    verified_users: count,
    unverified_users: count,
    anonymous_users: count,
    total_teams: count,
    mau: count,
    total_users_filtered: count,
    daily_active_users_split: activitySplit,
    daily_active_teams_split: activitySplit,
  }),
  payments_overview: z.object({
    subscriptions_by_status: z.record(z.string(), count),
    active_subscription_count: count,
    total_one_time_purchases: count,
    total_orders: count,
    revenue_cents: count,
    mrr_cents: count,
    checkout_conversion_rate: z.number(),
    daily_subscriptions: z.array(dailyCount),
  }),
  email_overview: z.object({
    emails_by_status: z.record(z.string(), count),
    total_emails: count,
    emails_sent: count,
    daily_emails: z.array(dailyCount),
    daily_emails_by_status: z.array(z.object({ date: z.string(), ok: count, error: count, in_progress: count })),
    deliverability_status: z.object({ delivered: count, bounced: count, error: count, in_progress: count }),
    deliverability_rate: z.number(),
    bounce_rate: z.number(),
    click_rate: z.number(),
    recent_emails: z.array(
      z.object({ id: z.string(), subject: z.string(), status: z.string(), created_at_millis: millis }),
    ),
  }),
  analytics_overview: z.object({
    daily_page_views: z.array(dailyCount),
    daily_clicks: z.array(dailyCount),
    daily_visitors: z.array(dailyCount),
    daily_revenue: z.array(z.object({ date: z.string(), new_cents: count, refund_cents: count })),
    total_replays: count,
    recent_replays: count,
    visitors: count,
    avg_session_seconds: z.number(),
    online_live: count,
    revenue_per_visitor: z.number(),
    total_revenue_cents: count,
    top_referrers: z.array(z.object({ referrer: z.string(), visitors: count })),
    top_region: z.object({ country_code: z.string().nullable(), region_code: z.string().nullable(), count }).nullable(),
  }),
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
export const aiChatCreateResponse = z.object({
  content: z.array(z.object({ type: z.literal("text"), text: z.string() })),
});
export const aiChatSave = z.strictObject({ message: z.unknown() });
export const aiChatMessages = z.object({ messages: z.array(z.unknown()) });

/**
 * POST /ai/query/{mode} (the dashboard's AI features: WYSIWYG editing, the email assistants, the command centre): the
 * real service forwards the messages to a model; the emulator checks the request as the real one does and answers a
 * fixed local reply (ops/ai/admin-misc.ts).
 */
export const aiQueryParams = z.strictObject({ mode: z.enum(["stream", "generate"]) });
export const aiSystemPrompts = [
  "command-center-ask-ai",
  "docs-ask-ai",
  "wysiwyg-edit",
  "email-wysiwyg-editor",
  "email-assistant-template",
  "email-assistant-theme",
  "email-assistant-draft",
  "create-dashboard",
  "run-query",
  "build-analytics-query",
  "rewrite-template-source",
] as const;
export const aiQueryRequest = z.strictObject({
  quality: z.enum(["dumb", "smart", "smartest"]),
  speed: z.enum(["slow", "fast"]),
  tools: z.array(z.string()),
  systemPrompt: z.enum(aiSystemPrompts),
  messages: z
    .array(
      z.strictObject({
        role: z.enum(["user", "assistant", "tool"]),
        content: z.unknown().refine((c) => c !== undefined, "must be defined"),
      }),
    )
    .min(1),
  projectId: z.string().nullable().optional(),
  mcpCallMetadata: z
    .strictObject({
      toolName: z.string(),
      reason: z.string(),
      userPrompt: z.string(),
      conversationId: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type AiQueryRequest = z.infer<typeof aiQueryRequest>;
export const aiQueryResponse = z.object({
  content: z.array(z.object({ type: z.literal("text"), text: z.string() })),
  finalText: z.string(),
  conversationId: z.string().nullable(),
});

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const adminMiscOperations = defineOperations("admin-misc", {
  svixToken: {
    method: "POST",
    path: "/webhooks/svix-token",
    access: "admin",
    body: svixTokenRequest,
    errors: [],
    responses: [json(svixTokenResponse)],
  },
  metrics: {
    method: "GET",
    path: "/internal/metrics",
    access: "admin",
    query: metricsQuery,
    errors: [],
    responses: [json(metricsResponse)],
  },
  aiChatCreate: {
    method: "POST",
    path: "/internal/ai-chat/:thread_id",
    access: "admin",
    params: aiChatParams,
    body: aiChatCreate,
    errors: [],
    responses: [json(aiChatCreateResponse)],
  },
  aiChatUpdate: {
    method: "PATCH",
    path: "/internal/ai-chat/:thread_id",
    access: "admin",
    params: aiChatParams,
    body: aiChatSave,
    errors: [],
    responses: [success],
  },
  aiChatGet: {
    method: "GET",
    path: "/internal/ai-chat/:thread_id",
    access: "admin",
    params: aiChatParams,
    errors: [],
    responses: [json(aiChatMessages)],
  },
  aiQuery: {
    method: "POST",
    path: "/ai/query/:mode",
    access: "none",
    params: aiQueryParams,
    body: aiQueryRequest,
    errors: [],
    responses: [json(aiQueryResponse)],
  },
});
