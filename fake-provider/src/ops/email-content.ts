import { uuid } from "@authsim/sdk/runtime";
import { knownError, StatusError } from "../http/known-error.ts";
import { defaultTemplates, defaultThemes, NEW_TEMPLATE_SOURCE } from "../email/default-sources.ts";
import type { EmailDraftRecord, EmailTemplateRecord, EmailThemeRecord } from "../store/admin-records.ts";
import type { OpContext } from "./context.ts";

/**
 * Email themes, templates and drafts of a project (spec §3, protocol.md §5.12). A project starts with the default
 * themes and templates of email/default-sources.ts; they are written into its tables the first time its email content
 * is touched, and from then on are ordinary rows (editable, deletable).
 */

export const contentKey = (projectId: string, id: string) => `${projectId}:${id}`;
const SEEDED = (projectId: string) => `email-defaults:${projectId}`;

export function ensureEmailDefaults(ctx: OpContext, projectId: string): void {
  if (ctx.tables.counters.has(SEEDED(projectId))) return;
  ctx.tables.counters.set(SEEDED(projectId), 1);
  for (const t of defaultThemes) {
    ctx.tables.emailThemes.set(contentKey(projectId, t.id), { id: t.id, projectId, displayName: t.displayName, tsxSource: t.tsxSource, createdAtMillis: ctx.now });
  }
  for (const t of defaultTemplates) {
    ctx.tables.emailTemplates.set(contentKey(projectId, t.id), {
      id: t.id,
      projectId,
      displayName: t.displayName,
      tsxSource: t.tsxSource,
      themeId: null,
      createdAtMillis: ctx.now,
    });
  }
}

const ofProject = <T extends { projectId: string; createdAtMillis: number; id: string }>(rows: Iterable<T>, projectId: string): T[] =>
  [...rows].filter((r) => r.projectId === projectId).sort((a, b) => a.createdAtMillis - b.createdAtMillis || (a.id < b.id ? -1 : 1));

// Themes

export function listThemes(ctx: OpContext, projectId: string): EmailThemeRecord[] {
  ensureEmailDefaults(ctx, projectId);
  return ofProject(ctx.tables.emailThemes.values(), projectId);
}

export function findTheme(ctx: OpContext, projectId: string, id: string): EmailThemeRecord | undefined {
  ensureEmailDefaults(ctx, projectId);
  return ctx.tables.emailThemes.get(contentKey(projectId, id));
}

export function requireTheme(ctx: OpContext, projectId: string, id: string): EmailThemeRecord {
  const theme = findTheme(ctx, projectId, id);
  if (!theme) throw new StatusError(404, `No email theme with id ${id}`);
  return theme;
}

export function createTheme(ctx: OpContext, projectId: string, displayName: string): EmailThemeRecord {
  ensureEmailDefaults(ctx, projectId);
  // A new theme starts as a copy of the default one, so it renders from the start.
  const record: EmailThemeRecord = { id: uuid(ctx.random), projectId, displayName, tsxSource: defaultThemes[0]!.tsxSource, createdAtMillis: ctx.now };
  ctx.tables.emailThemes.set(contentKey(projectId, record.id), record);
  return record;
}

export function saveTheme(ctx: OpContext, theme: EmailThemeRecord): void {
  ctx.tables.emailThemes.set(contentKey(theme.projectId, theme.id), theme);
}

/** The project's selected theme cannot be deleted (its emails would have none to render with). */
export function deleteTheme(ctx: OpContext, projectId: string, id: string, selectedThemeId: string): void {
  requireTheme(ctx, projectId, id);
  if (id === selectedThemeId) throw new StatusError(400, "The project's selected email theme cannot be deleted; select another theme first.");
  ctx.tables.emailThemes.delete(contentKey(projectId, id));
}

// Templates

export function listTemplates(ctx: OpContext, projectId: string): EmailTemplateRecord[] {
  ensureEmailDefaults(ctx, projectId);
  return ofProject(ctx.tables.emailTemplates.values(), projectId);
}

export function requireTemplate(ctx: OpContext, projectId: string, id: string): EmailTemplateRecord {
  ensureEmailDefaults(ctx, projectId);
  const template = ctx.tables.emailTemplates.get(contentKey(projectId, id));
  if (!template) throw new StatusError(404, `No email template with id ${id}`);
  return template;
}

/** Names are unique per project, case-insensitively: a second one is EMAIL_TEMPLATE_ALREADY_EXISTS (409, spec §8). */
export function createTemplate(ctx: OpContext, projectId: string, displayName: string): EmailTemplateRecord {
  const taken = listTemplates(ctx, projectId).some((t) => t.displayName.toLowerCase() === displayName.toLowerCase());
  if (taken) throw knownError("EMAIL_TEMPLATE_ALREADY_EXISTS");
  const record: EmailTemplateRecord = { id: uuid(ctx.random), projectId, displayName, tsxSource: NEW_TEMPLATE_SOURCE, themeId: null, createdAtMillis: ctx.now };
  ctx.tables.emailTemplates.set(contentKey(projectId, record.id), record);
  return record;
}

export function saveTemplate(ctx: OpContext, template: EmailTemplateRecord): void {
  ctx.tables.emailTemplates.set(contentKey(template.projectId, template.id), template);
}

export function deleteTemplate(ctx: OpContext, projectId: string, id: string): void {
  requireTemplate(ctx, projectId, id);
  ctx.tables.emailTemplates.delete(contentKey(projectId, id));
}

// Drafts

export function listDrafts(ctx: OpContext, projectId: string): EmailDraftRecord[] {
  return ofProject(ctx.tables.emailDrafts.values(), projectId);
}

export function requireDraft(ctx: OpContext, projectId: string, id: string): EmailDraftRecord {
  const draft = ctx.tables.emailDrafts.get(contentKey(projectId, id));
  if (!draft) throw new StatusError(404, `No email draft with id ${id}`);
  return draft;
}

export interface DraftFields {
  display_name?: string | undefined;
  theme_id?: string | false | null | undefined;
  tsx_source?: string | undefined;
}

export function createDraft(ctx: OpContext, projectId: string, body: DraftFields): EmailDraftRecord {
  if (typeof body.theme_id === "string") requireTheme(ctx, projectId, body.theme_id);
  const record: EmailDraftRecord = {
    id: uuid(ctx.random),
    projectId,
    displayName: body.display_name ?? "New draft",
    tsxSource: body.tsx_source ?? NEW_TEMPLATE_SOURCE,
    themeId: body.theme_id ?? null,
    sentAtMillis: null,
    createdAtMillis: ctx.now,
  };
  ctx.tables.emailDrafts.set(contentKey(projectId, record.id), record);
  return record;
}

export function updateDraft(ctx: OpContext, projectId: string, id: string, body: DraftFields): EmailDraftRecord {
  const draft = requireDraft(ctx, projectId, id);
  if (typeof body.theme_id === "string") requireTheme(ctx, projectId, body.theme_id);
  const next: EmailDraftRecord = {
    ...draft,
    ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
    ...(body.tsx_source !== undefined ? { tsxSource: body.tsx_source } : {}),
    ...(body.theme_id !== undefined ? { themeId: body.theme_id } : {}),
  };
  ctx.tables.emailDrafts.set(contentKey(projectId, id), next);
  return next;
}

export function markDraftSent(ctx: OpContext, draft: EmailDraftRecord): void {
  ctx.tables.emailDrafts.set(contentKey(draft.projectId, draft.id), { ...draft, sentAtMillis: ctx.now });
}

export function deleteDraft(ctx: OpContext, projectId: string, id: string): void {
  requireDraft(ctx, projectId, id);
  ctx.tables.emailDrafts.delete(contentKey(projectId, id));
}
