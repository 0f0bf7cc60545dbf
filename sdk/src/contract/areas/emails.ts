import { z } from "zod";
import { millis } from "./common.ts";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Any version of UUID, as yup's uuid() accepts; worded as the real service words a refusal. */
const anyUuid = z.string().regex(UUID_PATTERN, "must be a valid UUID");

/**
 * Email (spec §3 "Email theme / template / draft / Sent email", §7 Admin and Server only; protocol.md §5.12): themes,
 * templates and drafts as TSX sources, rendering, sending, the sent list and the test email.
 */

/** The real service's message for a value its custom test refuses; the emulator prints it as `body.x is invalid`. */
export const YUP_INVALID = "is invalid";

/**
 * A theme choice: a theme's id (a UUID), `null` for the project's selected theme, or `false` for no theme (protocol.md
 * §5.12). Anything else is refused as "is invalid", as the real service words it.
 */
export const themeChoice = z
  .union([z.string(), z.null(), z.literal(false)], { error: YUP_INVALID })
  .refine((v) => typeof v !== "string" || UUID_PATTERN.test(v), { message: YUP_INVALID });
export type ThemeChoice = z.infer<typeof themeChoice>;

export const emailThemeListItem = z.object({ id: z.string(), display_name: z.string() });
export const emailThemeList = z.object({ themes: z.array(emailThemeListItem) });
export const emailTheme = z.object({ id: z.string().optional(), display_name: z.string(), tsx_source: z.string() });
export const emailThemeCreate = z.strictObject({ display_name: z.string().min(1).max(256) });
export const emailThemeUpdate = z.strictObject({ tsx_source: z.string() });
/**
 * Ids in the path as the real routes name and check them: a theme, template or draft id that is not a UUID is a
 * SCHEMA_ERROR naming `params.id` / `params.templateId`, not a 404. The theme's PATCH route checks only that an id is
 * there (its real route's own schema), and DELETE has no real route to follow.
 */
export const emailThemeParams = z.strictObject({ id: anyUuid });
export const emailThemeUpdateParams = z.strictObject({ id: z.string().min(1) });
/** PATCH /internal/email-themes/{id} answers the theme's name. */
export const emailThemeUpdated = z.object({ display_name: z.string() });

export const emailTemplate = z.object({
  id: z.string(),
  display_name: z.string(),
  theme_id: z.union([z.string(), z.literal(false)]).optional(),
  tsx_source: z.string(),
});
export const emailTemplateList = z.object({ templates: z.array(emailTemplate) });
export const emailTemplateCreate = z.strictObject({ display_name: z.string().min(1).max(256) });
export const emailTemplateUpdate = z.strictObject({ tsx_source: z.string(), theme_id: themeChoice.optional() });
export const emailTemplateUpdated = z.object({ rendered_html: z.string() });
export const emailTemplateParams = z.strictObject({ templateId: anyUuid });

export const emailDraft = z.object({
  id: z.string(),
  display_name: z.string(),
  theme_id: z.union([z.string(), z.literal(false)]).optional(),
  tsx_source: z.string(),
  sent_at_millis: millis.nullable().optional(),
});
export const emailDraftList = z.object({ drafts: z.array(emailDraft) });
export const emailDraftCreate = z.strictObject({
  display_name: z.string().max(256),
  theme_id: themeChoice.optional(),
  tsx_source: z.string().optional(),
});
export const emailDraftUpdate = z.strictObject({
  display_name: z.string().max(256).optional(),
  theme_id: themeChoice.optional(),
  tsx_source: z.string().optional(),
});
/** PATCH and DELETE /internal/email-drafts/{id} answer `{ ok: "ok" }`. */
export const emailDraftOk = z.object({ ok: z.literal("ok") });
export const emailDraftParams = z.strictObject({ id: anyUuid });

export const createdId = z.object({ id: z.string() });

/**
 * POST /emails/render-email: a template by id or source, and a theme by id or source (or neither, for the project's);
 * the real service takes exactly one of each pair (the route checks the four combinations, http/yup-union.ts).
 */
export const renderEmailRequest = z.strictObject({
  theme_id: themeChoice.optional(),
  theme_tsx_source: z.string().optional(),
  template_id: z.string().optional(),
  template_tsx_source: z.string().optional(),
  editable_markers: z.boolean().optional(),
  editable_source: z.enum(["template", "theme", "both"]).optional(),
});
export type RenderEmailRequest = z.infer<typeof renderEmailRequest>;
export const renderEmailResponse = z.object({
  html: z.string(),
  text: z.string().optional(),
  subject: z.string().optional(),
  notification_category: z.string().optional(),
});

/** POST /emails/send-email (spec §7 Server only; sdk-surface.md §20 SendEmailOptions). */
export const sendEmailRequest = z.strictObject({
  user_ids: z.array(z.string()).optional(),
  all_users: z.literal(true).optional(),
  theme_id: themeChoice.optional(),
  html: z.string().optional(),
  subject: z.string().optional(),
  notification_category_name: z.string().optional(),
  template_id: z.string().optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
  draft_id: z.string().optional(),
  is_high_priority: z.boolean().optional(),
  scheduled_at_millis: millis.optional(),
});
export type SendEmailRequest = z.infer<typeof sendEmailRequest>;
export const sendEmailResponse = z.object({
  results: z.array(z.object({ user_id: z.string(), user_email: z.string().optional() })),
});

export const emailDeliveryWindow = z.object({ sent: z.number(), bounced: z.number(), marked_as_spam: z.number() });
export const emailDeliveryInfo = z.object({
  stats: z.object({
    hour: emailDeliveryWindow,
    day: emailDeliveryWindow,
    week: emailDeliveryWindow,
    month: emailDeliveryWindow,
  }),
  capacity: z.object({
    rate_per_second: z.number(),
    boost_multiplier: z.number(),
    penalty_factor: z.number(),
    is_boost_active: z.boolean(),
    boost_expires_at: z.string().nullable(),
  }),
});

/** GET /internal/emails: what was sent (spec §3 "Sent email"). */
export const sentEmail = z.object({
  id: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  sent_at_millis: millis,
  error: z.unknown().nullable().optional(),
});
export const sentEmailList = z.object({ items: z.array(sentEmail), is_paginated: z.literal(false).optional() });

/** POST /internal/send-test-email (spec §4 "Test email send returns success or an error message"). */
export const smtpConfig = z.strictObject({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  username: z.string(),
  password: z.string(),
  sender_email: z.string().email(),
  sender_name: z.string(),
});
export const sendTestEmailRequest = z.strictObject({ recipient_email: z.string().email(), email_config: smtpConfig });
export const sendTestEmailResponse = z.object({ success: z.boolean(), error_message: z.string().optional() });

export const signInInvitationRequest = z.strictObject({ email: z.string().email(), callback_url: z.string().url() });

/**
 * The email outbox (GET/PATCH /emails/outbox…): every email the project sent or will send, as the real service's
 * email-outbox CRUD shows it. The fields depend on `status` (a discriminated union upstream); the schema holds the
 * base fields every entry has and lets the status-specific ones through.
 */
export const outboxRecipient = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("user-primary-email"), user_id: z.string() }),
  z.strictObject({ type: z.literal("user-custom-emails"), user_id: z.string(), emails: z.array(z.string()) }),
  z.strictObject({ type: z.literal("custom-emails"), emails: z.array(z.string()) }),
]);
export const outboxStatus = z.enum([
  "paused",
  "preparing",
  "rendering",
  "render-error",
  "scheduled",
  "queued",
  "sending",
  "server-error",
  "skipped",
  "bounced",
  "delivery-delayed",
  "sent",
  "opened",
  "clicked",
  "marked-as-spam",
]);
export const outboxEmail = z.looseObject({
  id: z.string(),
  created_at_millis: millis,
  updated_at_millis: millis,
  tsx_source: z.string(),
  theme_id: z.string().nullable(),
  to: outboxRecipient,
  variables: z.record(z.string(), z.unknown()),
  skip_deliverability_check: z.boolean(),
  scheduled_at_millis: millis,
  created_with: z.enum(["draft", "programmatic-call"]),
  email_draft_id: z.string().nullable(),
  email_programmatic_call_template_id: z.string().nullable(),
  send_retries: z.number(),
  next_send_retry_at_millis: millis.nullable(),
  send_attempt_errors: z.array(z.unknown()).nullable(),
  status: outboxStatus,
  simple_status: z.enum(["in-progress", "ok", "error"]),
  is_paused: z.boolean(),
  has_rendered: z.boolean(),
  has_delivered: z.boolean(),
});
export type OutboxEmailJson = z.input<typeof outboxEmail>;
export const outboxEmailList = z.object({
  items: z.array(outboxEmail),
  is_paginated: z.literal(true),
  pagination: z.object({ next_cursor: z.string().nullable() }),
});
export const outboxListQuery = z.strictObject({
  status: z.string().optional(),
  simple_status: z.string().optional(),
  limit: z.string().optional(),
  cursor: anyUuid.optional(),
});
export const outboxEmailParams = z.strictObject({ id: anyUuid });
export const outboxEmailUpdate = z.strictObject({
  tsx_source: z.string().optional(),
  theme_id: z.string().nullable().optional(),
  to: outboxRecipient.optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
  skip_deliverability_check: z.boolean().optional(),
  scheduled_at_millis: millis.optional(),
  is_paused: z.boolean().optional(),
  cancel: z.literal(true).optional(),
});
export type OutboxEmailUpdate = z.infer<typeof outboxEmailUpdate>;

/** POST /internal/rewrite-template-source: a template's source rewritten as a draft's (no variables to fill). */
export const rewriteTemplateSourceRequest = z.strictObject({ template_tsx_source: z.string() });
export const rewriteTemplateSourceResponse = z.object({ tsx_source: z.string() });

/** The cron endpoints (GET /internal/email-queue-step, POST /internal/failed-emails-digest). */
export const emailQueueStepQuery = z.strictObject({ only_one_step: z.enum(["true", "false"]).optional() });
export const emailQueueStepResponse = z.object({ ok: z.boolean() });
export const failedEmailsDigestQuery = z.strictObject({ dry_run: z.enum(["true", "false"]).optional() });
export const failedEmailsDigestResponse = z.object({
  success: z.boolean(),
  error_message: z.string().optional(),
  failed_emails_by_tenancy: z
    .array(
      z.object({
        emails: z.array(z.object({ subject: z.string(), to: z.array(z.string()) })),
        tenant_owner_emails: z.array(z.string()),
        project_id: z.string(),
        tenancy_id: z.string(),
      }),
    )
    .optional(),
});

/**
 * The bodies of POST /emails/render-email and /emails/send-email: any JSON here; the route checks them against the
 * real service's alternatives (which need a yup-style union, fake-provider http/yup-union.ts), then against
 * renderEmailRequest / sendEmailRequest.
 */
/**
 * The render and send bodies, typed as their schemas: the route checks them at run time against the real service's
 * alternatives (fake-provider api/http/yup-union.ts), whose SCHEMA_ERROR wording zod's would not match, so the mount
 * lets any JSON through to it.
 */
const checkedByTheRoute = <S extends z.ZodType>(_schema: S) =>
  z
    .custom<z.input<S>>(() => true)
    .describe("A JSON object; see the operation for the accepted combinations of fields.");
export const renderEmailBody = checkedByTheRoute(renderEmailRequest);
export const sendEmailBody = checkedByTheRoute(sendEmailRequest);
/** GET /emails/unsubscribe-link: the code is checked by the route (a plain-text 400 when missing or unknown). */
export const unsubscribeLinkQuery = z.object({ code: z.string().optional() });
