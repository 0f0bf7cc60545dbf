import { z } from "zod";
import { renderEmailRequest, sendEmailRequest } from "@authsim/sdk/contract";
import { emailQueueStep, failedEmailsDigest } from "../../domain/ops/emails/email-cron.ts";
import { rewriteTemplateSource } from "../../domain/ops/emails/email-rewrite.ts";
import * as content from "../../domain/ops/emails/email-content.ts";
import {
  renderEmailPreview,
  updateTemplateSource,
  updateThemeSource,
} from "../../domain/ops/emails/email-rendering.ts";
import { listSentEmails, sendCustomEmail } from "../../domain/ops/emails/email-sending.ts";
import { renderInlineAfterCommit } from "../../domain/ops/emails/email-queue.ts";
import { mapStep } from "../../domain/ops/outside-lock.ts";
import { activateCapacityBoost, deliveryInfo } from "../../domain/ops/emails/email-delivery.ts";
import { unsubscribe } from "../../domain/ops/emails/email-unsubscribe.ts";
import { getOutboxEmail, listOutbox, updateOutboxEmail } from "../../domain/ops/emails/email-outbox.ts";
import { sendSignInInvitation, sendTestEmail } from "../../domain/ops/emails/admin-emails.ts";
import {
  draftView,
  outboxEmailView,
  sentEmailView,
  templateView,
  themeListItemView,
  themeView,
} from "../../domain/views/emails.ts";
import { requiredHeader, schemaError, validate } from "../http/parse.ts";
import {
  isArray,
  isBoolean,
  isNumber,
  isObject,
  isString,
  isThemeChoice,
  isUuid,
  matchUnion,
  type UnionAlternative,
} from "../http/yup-union.ts";
import { ok, success, type RouteTable } from "./define.ts";

/**
 * A body the route checks itself (its contract body, renderEmailBody or sendEmailBody, is typed but lets any JSON through) against the real
 * service's alternatives (api/http/yup-union.ts), then against `schema`.
 */
function parseUnionBody<S extends z.ZodType>(
  request: Request,
  body: unknown,
  alternatives: readonly UnionAlternative[],
  schema: S,
): z.output<S> {
  const where = { method: request.method, pathname: new URL(request.url).pathname };
  const matched = matchUnion(body, alternatives);
  if (!matched.ok) throw schemaError(where, matched.problems);
  return validate(schema, body, { ...where, part: "body" });
}

/** The cron endpoints' `authorization` header, required as the real service's request schema requires it. */
const authorizationHeader = (request: Request) => requiredHeader(request, "authorization");

const editable = { editable_markers: { check: isBoolean }, editable_source: { check: isString } };
/** POST /emails/render-email: a template id or source with a theme id or source. */
const RENDER_EMAIL_BODIES: readonly UnionAlternative[] = [
  { fields: { template_id: { required: true, check: isUuid }, theme_id: { check: isThemeChoice }, ...editable } },
  {
    fields: {
      template_id: { required: true, check: isUuid },
      theme_tsx_source: { required: true, check: isString },
      ...editable,
    },
  },
  {
    fields: {
      template_tsx_source: { required: true, check: isString },
      theme_id: { check: isThemeChoice },
      ...editable,
    },
  },
  {
    fields: {
      template_tsx_source: { required: true, check: isString },
      theme_tsx_source: { required: true, check: isString },
      ...editable,
    },
  },
];
const sendBase = {
  user_ids: { check: isArray },
  all_users: {
    check: (v: unknown) => (v === true ? null : (isBoolean(v) ?? "must be one of the following values: true")),
  },
  subject: { check: isString },
  notification_category_name: { check: isString },
  theme_id: { check: isThemeChoice },
  is_high_priority: { check: isBoolean },
  scheduled_at_millis: { check: isNumber },
};
/** POST /emails/send-email: html, a template with variables, or a draft. */
const SEND_EMAIL_BODIES: readonly UnionAlternative[] = [
  { fields: { ...sendBase, html: { required: true, check: isString } }, repeatUnknown: true },
  {
    fields: { ...sendBase, template_id: { required: true, check: isUuid }, variables: { check: isObject } },
    repeatUnknown: true,
  },
  { fields: { ...sendBase, draft_id: { required: true, check: isString } }, repeatUnknown: true },
];

/** Email (protocol.md §5.12; spec §7): themes, templates, drafts, rendering, sending, the sent list and test emails. */
export const emailRoutes: RouteTable = {
  listEmailThemes: {
    handler: ({ auth, ctx }) => ok({ themes: content.listThemes(ctx, auth.project.id).map(themeListItemView) }),
  },
  createEmailTheme: {
    handler: ({ auth, ctx, body }) => ok({ id: content.createTheme(ctx, auth.project.id, body.display_name).id }),
  },
  getEmailTheme: {
    handler: ({ auth, ctx, params }) => ok(themeView(content.requireTheme(ctx, auth.project.id, params.id))),
  },
  updateEmailTheme: {
    handler: ({ auth, ctx, params, body }) =>
      updateThemeSource(ctx, auth.project, params.id, body.tsx_source).map((theme) =>
        ok({ display_name: theme.displayName }),
      ),
  },
  deleteEmailTheme: {
    handler: ({ auth, ctx, params }) => {
      content.deleteTheme(ctx, auth.project.id, params.id, auth.project.config.email_theme);
      return success();
    },
  },
  listEmailTemplates: {
    handler: ({ auth, ctx }) => ok({ templates: content.listTemplates(ctx, auth.project.id).map(templateView) }),
  },
  createEmailTemplate: {
    handler: ({ auth, ctx, body }) => ok({ id: content.createTemplate(ctx, auth.project, body.display_name).id }),
  },
  updateEmailTemplate: {
    handler: ({ auth, ctx, params, body }) =>
      updateTemplateSource(ctx, auth.project, params.templateId, body).map(({ renderedHtml }) =>
        ok({ rendered_html: renderedHtml }),
      ),
  },
  deleteEmailTemplate: {
    handler: ({ auth, ctx, params }) => {
      content.deleteTemplate(ctx, auth.project, params.templateId);
      return ok({});
    },
  },
  listEmailDrafts: {
    handler: ({ auth, ctx }) => ok({ drafts: content.listDrafts(ctx, auth.project.id).map(draftView) }),
  },
  createEmailDraft: {
    handler: ({ auth, ctx, body }) => ok({ id: content.createDraft(ctx, auth.project.id, body).id }),
  },
  updateEmailDraft: {
    handler: ({ auth, ctx, params, body }) => {
      content.updateDraft(ctx, auth.project.id, params.id, body);
      return ok({ ok: "ok" });
    },
  },
  deleteEmailDraft: {
    handler: ({ auth, ctx, params }) => {
      content.deleteDraft(ctx, auth.project.id, params.id);
      return ok({ ok: "ok" });
    },
  },
  renderEmail: {
    handler: ({ auth, ctx, body, request }) =>
      renderEmailPreview(ctx, auth.project, parseUnionBody(request, body, RENDER_EMAIL_BODIES, renderEmailRequest)).map(
        (rendered) =>
          // The real service answers no text part here.
          ok({
            html: rendered.html,
            ...(rendered.subject !== undefined ? { subject: rendered.subject } : {}),
            ...(rendered.notificationCategory !== undefined
              ? { notification_category: rendered.notificationCategory }
              : {}),
          }),
      ),
  },
  sendEmail: {
    handler: ({ auth, ctx, body, request }) =>
      ok(sendCustomEmail(ctx, auth.project, parseUnionBody(request, body, SEND_EMAIL_BODIES, sendEmailRequest))),
  },
  listOutboxEmails: {
    handler: ({ auth, ctx, query }) => {
      const { items, nextCursor } = listOutbox(ctx, auth.project.id, query);
      return ok({
        items: items.map((e) => outboxEmailView(e, ctx.now)),
        is_paginated: true,
        pagination: { next_cursor: nextCursor },
      });
    },
  },
  getOutboxEmail: {
    handler: ({ auth, ctx, params }) => ok(outboxEmailView(getOutboxEmail(ctx, auth.project.id, params.id), ctx.now)),
  },
  updateOutboxEmail: {
    handler: ({ auth, ctx, params, body }) =>
      mapStep(
        updateOutboxEmail(ctx, auth.project.id, params.id, body, renderInlineAfterCommit),
        (email, after) => ok(outboxEmailView(email, after.now)),
        ctx,
      ),
  },
  emailDeliveryInfo: { handler: ({ auth, ctx }) => ok(deliveryInfo(ctx, auth.project)) },
  activateCapacityBoost: { handler: ({ auth, ctx }) => ok(activateCapacityBoost(ctx, auth.project)) },
  unsubscribeLink: {
    handler: ({ ctx, query }) => {
      const outcome = unsubscribe(ctx, query.code);
      return outcome.status === 400
        ? new Response(outcome.text, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } })
        : new Response(outcome.html, { status: 200, headers: { "content-type": "text/html" } });
    },
  },
  getEmailDraft: {
    handler: ({ auth, ctx, params }) => ok(draftView(content.requireDraft(ctx, auth.project.id, params.id))),
  },
  rewriteTemplateSource: { handler: ({ body }) => ok(rewriteTemplateSource(body.template_tsx_source)) },
  emailQueueStep: { handler: ({ request }) => ok(emailQueueStep(authorizationHeader(request))) },
  failedEmailsDigest: {
    handler: ({ ctx, query, request }) => {
      const digest = failedEmailsDigest(ctx, authorizationHeader(request), query.dry_run === "true");
      return digest.status === 200 ? ok(digest.body) : { status: digest.status, body: digest.body };
    },
  },
  listSentEmails: {
    handler: ({ auth, ctx }) =>
      ok({ items: listSentEmails(ctx, auth.project.id).map((e) => sentEmailView(e, ctx.now)), is_paginated: false }),
  },
  sendTestEmail: { handler: ({ auth, ctx, body }) => ok(sendTestEmail(ctx, auth.project, body)) },
  sendSignInInvitation: {
    handler: ({ auth, ctx, body }) => {
      sendSignInInvitation(ctx, auth.project, body);
      return success();
    },
  },
};
