import { type ThemeChoice } from "../contract/areas/emails.ts";
import type { AppContext } from "../client/app-context.ts";
import { err, ok, type Result } from "../errors/result.ts";
import { asServer } from "../transport/operation-call.ts";

/** Email themes, templates, drafts, previews and the admin's sending calls (sdk-surface.md §8, §20; protocol.md §5.12). */

export interface EmailThemeSummary {
  id: string;
  displayName: string;
}
export interface EmailTemplateRecord {
  id: string;
  displayName: string;
  /** A theme id, `false` for no theme, or undefined for the project's theme. */
  themeId?: string | false;
  tsxSource: string;
}
export interface EmailDraftRecord extends EmailTemplateRecord {
  sentAt: Date | null;
}
export interface AdminSentEmail {
  id: string;
  to: string[];
  subject: string;
  recipient: string;
  sentAt: Date;
  error?: unknown;
}
export interface SmtpConfigOptions {
  host: string;
  port: number;
  username: string;
  password: string;
  senderEmail: string;
  senderName: string;
}

export async function listEmailThemes(ctx: AppContext): Promise<EmailThemeSummary[]> {
  return (await asServer.json(ctx.transport, "listEmailThemes", {})).themes.map((t) => ({
    id: t.id,
    displayName: t.display_name,
  }));
}
export async function getEmailTheme(ctx: AppContext, id: string): Promise<{ displayName: string; tsxSource: string }> {
  const json = await asServer.json(ctx.transport, "getEmailTheme", { params: { id } });
  return { displayName: json.display_name, tsxSource: json.tsx_source };
}
export async function createEmailTheme(ctx: AppContext, displayName: string): Promise<{ id: string }> {
  return asServer.json(ctx.transport, "createEmailTheme", { body: { display_name: displayName } });
}
export async function updateEmailTheme(ctx: AppContext, id: string, tsxSource: string): Promise<void> {
  await asServer.send(ctx.transport, "updateEmailTheme", { params: { id }, body: { tsx_source: tsxSource } });
}
export async function deleteEmailTheme(ctx: AppContext, id: string): Promise<void> {
  await asServer.send(ctx.transport, "deleteEmailTheme", { params: { id } });
}

export async function listEmailTemplates(ctx: AppContext): Promise<EmailTemplateRecord[]> {
  return (await asServer.json(ctx.transport, "listEmailTemplates", {})).templates.map((t) => ({
    id: t.id,
    displayName: t.display_name,
    ...(t.theme_id !== undefined ? { themeId: t.theme_id } : {}),
    tsxSource: t.tsx_source,
  }));
}
export async function createEmailTemplate(ctx: AppContext, displayName: string): Promise<{ id: string }> {
  return asServer.json(ctx.transport, "createEmailTemplate", { body: { display_name: displayName } });
}
export async function updateEmailTemplate(
  ctx: AppContext,
  id: string,
  tsxSource: string,
  themeId: ThemeChoice | undefined,
): Promise<{ renderedHtml: string }> {
  const json = await asServer.json(ctx.transport, "updateEmailTemplate", {
    params: { templateId: id },
    body: { tsx_source: tsxSource, theme_id: themeId },
  });
  return { renderedHtml: json.rendered_html };
}
export async function deleteEmailTemplate(ctx: AppContext, id: string): Promise<void> {
  await asServer.send(ctx.transport, "deleteEmailTemplate", { params: { templateId: id } });
}

export async function listEmailDrafts(ctx: AppContext): Promise<EmailDraftRecord[]> {
  return (await asServer.json(ctx.transport, "listEmailDrafts", {})).drafts.map((d) => ({
    id: d.id,
    displayName: d.display_name,
    ...(d.theme_id !== undefined ? { themeId: d.theme_id } : {}),
    tsxSource: d.tsx_source,
    sentAt: d.sent_at_millis ? new Date(d.sent_at_millis) : null,
  }));
}
export interface EmailDraftOptions {
  displayName?: string;
  themeId?: ThemeChoice;
  tsxSource?: string;
}
const draftToWire = (o: EmailDraftOptions) => ({
  display_name: o.displayName,
  theme_id: o.themeId,
  tsx_source: o.tsxSource,
});
/** A new draft needs its name (sdk-surface.md §8 createEmailDraft; the service refuses a create without display_name). */
export type EmailDraftCreateOptions = EmailDraftOptions & { displayName: string };
export async function createEmailDraft(ctx: AppContext, options: EmailDraftCreateOptions): Promise<{ id: string }> {
  return asServer.json(ctx.transport, "createEmailDraft", {
    body: { ...draftToWire(options), display_name: options.displayName },
  });
}
export async function updateEmailDraft(ctx: AppContext, id: string, options: EmailDraftOptions): Promise<void> {
  await asServer.send(ctx.transport, "updateEmailDraft", { params: { id }, body: draftToWire(options) });
}
export async function deleteEmailDraft(ctx: AppContext, id: string): Promise<void> {
  await asServer.send(ctx.transport, "deleteEmailDraft", { params: { id } });
}

export interface EmailPreviewOptions {
  themeId?: ThemeChoice;
  themeTsxSource?: string;
  templateId?: string;
  templateTsxSource?: string;
}
/** The rendered HTML (POST /emails/render-email); a bad source is EMAIL_RENDERING_ERROR with the compiler's message. */
export async function getEmailPreview(ctx: AppContext, o: EmailPreviewOptions): Promise<string> {
  const body = {
    theme_id: o.themeId,
    theme_tsx_source: o.themeTsxSource,
    template_id: o.templateId,
    template_tsx_source: o.templateTsxSource,
  };
  return (await asServer.json(ctx.transport, "renderEmail", { body })).html;
}

/** Spec §4: the test email gives success or an error message, never a throw for a failed delivery. */
export async function sendTestEmail(
  ctx: AppContext,
  options: { recipientEmail: string; emailConfig: SmtpConfigOptions },
): Promise<Result<void, { errorMessage: string }>> {
  const c = options.emailConfig;
  const body = {
    recipient_email: options.recipientEmail,
    email_config: {
      host: c.host,
      port: c.port,
      username: c.username,
      password: c.password,
      sender_email: c.senderEmail,
      sender_name: c.senderName,
    },
  };
  const json = await asServer.json(ctx.transport, "sendTestEmail", { body });
  return json.success
    ? ok(undefined)
    : err({ errorMessage: json.error_message ?? "The test email could not be sent." });
}

export async function listSentEmails(ctx: AppContext): Promise<AdminSentEmail[]> {
  return (await asServer.json(ctx.transport, "listSentEmails", {})).items.map((e) => ({
    id: e.id,
    to: e.to,
    subject: e.subject,
    recipient: e.to[0] ?? "",
    sentAt: new Date(e.sent_at_millis),
    ...(e.error !== undefined && e.error !== null ? { error: e.error } : {}),
  }));
}

export async function sendSignInInvitationEmail(ctx: AppContext, email: string, callbackUrl: string): Promise<void> {
  await asServer.send(ctx.transport, "sendSignInInvitation", { body: { email, callback_url: callbackUrl } });
}
