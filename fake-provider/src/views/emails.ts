import type { EmailDraftRecord, EmailTemplateRecord, EmailThemeRecord } from "../store/admin-records.ts";
import type { SentEmailRecord } from "../store/records.ts";

/** Wire views of email content (protocol.md §5.12) and of sent emails (spec §3 "Sent email"). */

export const themeListItemView = (t: EmailThemeRecord) => ({ id: t.id, display_name: t.displayName });
export const themeView = (t: EmailThemeRecord) => ({ display_name: t.displayName, tsx_source: t.tsxSource });

/** A null theme id (the project's theme) is left out, `false` (no theme) is kept. */
export const templateView = (t: EmailTemplateRecord) => ({
  id: t.id,
  display_name: t.displayName,
  ...(t.themeId !== null ? { theme_id: t.themeId } : {}),
  tsx_source: t.tsxSource,
});

export const draftView = (d: EmailDraftRecord) => ({
  id: d.id,
  display_name: d.displayName,
  ...(d.themeId !== null ? { theme_id: d.themeId } : {}),
  tsx_source: d.tsxSource,
  sent_at_millis: d.sentAtMillis,
});

export const sentEmailView = (e: SentEmailRecord) => ({ id: e.id, to: e.to, subject: e.subject, sent_at_millis: e.sentAtMillis, error: null });
