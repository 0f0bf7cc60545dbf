import { uuid } from "@authsim/sdk/runtime";
import { knownError, StatusError } from "../../errors/known-error.ts";
import { defaultTemplates, defaultThemes, LEGACY_THEME_IDS, NEW_TEMPLATE_SOURCE } from "../../email/default-sources.ts";
import type { EmailDraftRecord, EmailTemplateRecord, EmailThemeRecord } from "../../store/admin-records.ts";
import type { ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * Email themes, templates and drafts of a project (spec §3, protocol.md §5.12). A project starts with the default
 * themes and templates of domain/email/default-sources.ts; they are written into its tables the first time its email content
 * is touched, and from then on are ordinary rows (editable, deletable).
 */

export const contentKey = (projectId: string, id: string) => `${projectId}:${id}`;
const SEEDED = (projectId: string) => `email-defaults:${projectId}`;

export function ensureEmailDefaults(ctx: OpContext, projectId: string): void {
  if (ctx.tables.counters.has(SEEDED(projectId))) return;
  ctx.tables.counters.set(SEEDED(projectId), 1);
  for (const t of defaultThemes) {
    ctx.tables.emailThemes.set(contentKey(projectId, t.id), {
      id: t.id,
      projectId,
      displayName: t.displayName,
      tsxSource: t.tsxSource,
      createdAtMillis: ctx.now,
    });
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

/** A project's rows, oldest first; rows made in the same millisecond keep the order they were made in (a stable sort). */
const ofProject = <T extends { projectId: string; createdAtMillis: number; id: string }>(
  rows: Iterable<T>,
  projectId: string,
): T[] => [...rows].filter((r) => r.projectId === projectId).sort((a, b) => a.createdAtMillis - b.createdAtMillis);

/** Templates are the project's own only with a custom email server: with the shared one they cannot be changed. */
export function requireCustomEmailServer(project: ProjectRecord): void {
  if ((project.config.email_config ?? { type: "shared" }).type === "shared")
    throw knownError("REQUIRES_CUSTOM_EMAIL_SERVER");
}

/** The logos a theme's ProjectLogo shows. */
export function projectLogosOf(project: ProjectRecord): {
  logoUrl?: string;
  logoFullUrl?: string;
  logoDarkModeUrl?: string;
  logoFullDarkModeUrl?: string;
} {
  return {
    ...(project.logoUrl ? { logoUrl: project.logoUrl } : {}),
    ...(project.logoFullUrl ? { logoFullUrl: project.logoFullUrl } : {}),
    ...(project.logoDarkModeUrl ? { logoDarkModeUrl: project.logoDarkModeUrl } : {}),
    ...(project.logoFullDarkModeUrl ? { logoFullDarkModeUrl: project.logoFullDarkModeUrl } : {}),
  };
}

// Themes

export function listThemes(ctx: OpContext, projectId: string): EmailThemeRecord[] {
  ensureEmailDefaults(ctx, projectId);
  return ofProject(ctx.tables.emailThemes.values(), projectId);
}

export function findTheme(ctx: OpContext, projectId: string, id: string): EmailThemeRecord | undefined {
  ensureEmailDefaults(ctx, projectId);
  return ctx.tables.emailThemes.get(contentKey(projectId, LEGACY_THEME_IDS[id] ?? id));
}

/** A theme by id; a missing one is the real service's plain-text answer (404 on the theme routes, 400 where rendering). */
export function requireTheme(ctx: OpContext, projectId: string, id: string, status: 400 | 404 = 404): EmailThemeRecord {
  const theme = findTheme(ctx, projectId, id);
  if (!theme) throw refusal(status === 404 ? "themeNotFound" : "themeNotFoundToRender");
  return theme;
}

export function createTheme(ctx: OpContext, projectId: string, displayName: string): EmailThemeRecord {
  ensureEmailDefaults(ctx, projectId);
  // A new theme starts as a copy of the default one, so it renders from the start.
  const record: EmailThemeRecord = {
    id: uuid(ctx.random),
    projectId,
    displayName,
    tsxSource: defaultThemes[0]!.tsxSource,
    createdAtMillis: ctx.now,
  };
  ctx.tables.emailThemes.set(contentKey(projectId, record.id), record);
  return record;
}

export function saveTheme(ctx: OpContext, theme: EmailThemeRecord): void {
  ctx.tables.emailThemes.set(contentKey(theme.projectId, theme.id), theme);
}

/** The project's selected theme cannot be deleted (its emails would have none to render with). */
export function deleteTheme(ctx: OpContext, projectId: string, id: string, selectedThemeId: string): void {
  const theme = findTheme(ctx, projectId, id);
  if (theme && theme.id === (LEGACY_THEME_IDS[selectedThemeId] ?? selectedThemeId)) {
    throw refusal("cannotDeleteCurrentlyActiveEmail");
  }
  const found = requireTheme(ctx, projectId, id);
  ctx.tables.emailThemes.delete(contentKey(projectId, found.id));
}

// Templates

export function listTemplates(ctx: OpContext, projectId: string): EmailTemplateRecord[] {
  ensureEmailDefaults(ctx, projectId);
  return ofProject(ctx.tables.emailTemplates.values(), projectId);
}

export function findTemplate(ctx: OpContext, projectId: string, id: string): EmailTemplateRecord | undefined {
  ensureEmailDefaults(ctx, projectId);
  return ctx.tables.emailTemplates.get(contentKey(projectId, id));
}

/** A template by id; a missing one is the real service's plain-text answer (404 on the template routes, 400 where rendering). */
export function requireTemplate(
  ctx: OpContext,
  projectId: string,
  id: string,
  missing: () => StatusError = () => refusal("templateNotFound"),
): EmailTemplateRecord {
  const template = findTemplate(ctx, projectId, id);
  if (!template) throw missing();
  return template;
}

/**
 * Needs a custom email server (REQUIRES_CUSTOM_EMAIL_SERVER). Names are unique per project, case-insensitively: a second
 * one is EMAIL_TEMPLATE_ALREADY_EXISTS (409, spec §8).
 */
export function createTemplate(ctx: OpContext, project: ProjectRecord, displayName: string): EmailTemplateRecord {
  requireCustomEmailServer(project);
  const projectId = project.id;
  const taken = listTemplates(ctx, projectId).some((t) => t.displayName.toLowerCase() === displayName.toLowerCase());
  if (taken) throw knownError("EMAIL_TEMPLATE_ALREADY_EXISTS");
  const record: EmailTemplateRecord = {
    id: uuid(ctx.random),
    projectId,
    displayName,
    tsxSource: NEW_TEMPLATE_SOURCE,
    themeId: null,
    createdAtMillis: ctx.now,
  };
  ctx.tables.emailTemplates.set(contentKey(projectId, record.id), record);
  return record;
}

export function saveTemplate(ctx: OpContext, template: EmailTemplateRecord): void {
  ctx.tables.emailTemplates.set(contentKey(template.projectId, template.id), template);
}

export function deleteTemplate(ctx: OpContext, project: ProjectRecord, id: string): void {
  requireCustomEmailServer(project);
  const projectId = project.id;
  requireTemplate(ctx, projectId, id);
  removeTemplate(ctx, projectId, id);
}

/** Removes a template row (the config's `emails.templates` keys write the table too, domain/ops/config/project-config.ts). */
export function removeTemplate(ctx: OpContext, projectId: string, id: string): void {
  ctx.tables.emailTemplates.delete(contentKey(projectId, id));
}

// Drafts

/** The project's drafts, the most recently changed first (as the real service lists them). */
export function listDrafts(ctx: OpContext, projectId: string): EmailDraftRecord[] {
  const changedAt = (d: EmailDraftRecord) => d.updatedAtMillis ?? d.createdAtMillis;
  return ofProject(ctx.tables.emailDrafts.values(), projectId)
    .reverse()
    .sort((a, b) => changedAt(b) - changedAt(a));
}

/** A draft by id; a missing one is the real service's plain-text answer (404 on the draft routes, 400 when sending). */
export function requireDraft(
  ctx: OpContext,
  projectId: string,
  id: string,
  missing: () => StatusError = () => refusal("draftNotFound"),
): EmailDraftRecord {
  const draft = ctx.tables.emailDrafts.get(contentKey(projectId, id));
  if (!draft) throw missing();
  return draft;
}

export interface DraftFields {
  display_name?: string | undefined;
  theme_id?: string | false | null | undefined;
  tsx_source?: string | undefined;
}

export function createDraft(ctx: OpContext, projectId: string, body: DraftFields): EmailDraftRecord {
  const record: EmailDraftRecord = {
    id: uuid(ctx.random),
    projectId,
    displayName: body.display_name ?? "New draft",
    tsxSource: body.tsx_source ?? NEW_TEMPLATE_SOURCE,
    themeId: body.theme_id ?? null,
    sentAtMillis: null,
    createdAtMillis: ctx.now,
    updatedAtMillis: ctx.now,
  };
  ctx.tables.emailDrafts.set(contentKey(projectId, record.id), record);
  return record;
}

export function updateDraft(ctx: OpContext, projectId: string, id: string, body: DraftFields): EmailDraftRecord {
  const draft = requireDraft(ctx, projectId, id);
  const next: EmailDraftRecord = {
    ...draft,
    ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
    ...(body.tsx_source !== undefined ? { tsxSource: body.tsx_source } : {}),
    ...(body.theme_id !== undefined ? { themeId: body.theme_id } : {}),
    updatedAtMillis: ctx.now,
  };
  ctx.tables.emailDrafts.set(contentKey(projectId, id), next);
  return next;
}

export function markDraftSent(ctx: OpContext, draft: EmailDraftRecord): void {
  ctx.tables.emailDrafts.set(contentKey(draft.projectId, draft.id), {
    ...draft,
    sentAtMillis: ctx.now,
    updatedAtMillis: ctx.now,
  });
}

export function deleteDraft(ctx: OpContext, projectId: string, id: string): void {
  requireDraft(ctx, projectId, id);
  ctx.tables.emailDrafts.delete(contentKey(projectId, id));
}
