import type { RenderEmailRequest, ThemeChoice } from "@authsim/sdk/contract";
import { knownError } from "../../errors/known-error.ts";
import { EMPTY_THEME_SOURCE, SAMPLE_CONTENT_SOURCE } from "../../email/default-sources.ts";
import {
  renderEmailSources,
  renderingError,
  type RenderedEmail,
  type RenderInput,
} from "../../email/render/sandbox.ts";
import type { EmailTemplateRecord, EmailThemeRecord } from "../../store/admin-records.ts";
import type { ProjectRecord, UserRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { outsideLock, type OutsideLock } from "../outside-lock.ts";
import {
  findTheme,
  listThemes,
  projectLogosOf,
  requireCustomEmailServer,
  requireTemplate,
  requireTheme,
  saveTemplate,
  saveTheme,
} from "./email-content.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * Rendering with a project's themes and templates (protocol.md §5.12): POST /emails/render-email, the checks made when a
 * template or theme is saved, and sending (domain/ops/emails/email-sending.ts). Bad source is EMAIL_RENDERING_ERROR (400) with the
 * compiler's or the runtime's message, and nothing is saved.
 */

/** The provider's render time limit for an email's code, when it sets one (FakeProviderOptions.emailRenderTimeLimitMillis). */
export const renderTimeLimit = (ctx: OpContext): Pick<RenderInput, "timeLimitMillis"> =>
  ctx.settings.emailRenderTimeLimitMillis === undefined
    ? {}
    : { timeLimitMillis: ctx.settings.emailRenderTimeLimitMillis };

/** The project's active theme: the selected one, or the first default when the selected one is gone. */
export function activeThemeSource(ctx: OpContext, project: ProjectRecord): string | null {
  return (findTheme(ctx, project.id, project.config.email_theme) ?? listThemes(ctx, project.id)[0])?.tsxSource ?? null;
}

/**
 * A theme choice as the wire gives it: an id, null (the project's selected theme) or false (no theme: the bare
 * document upstream wraps themeless content in, EMPTY_THEME_SOURCE). A missing theme
 * is the real service's plain-text "No theme found with given id", with `missingStatus` (400 where rendering).
 */
export function themeSourceFor(
  ctx: OpContext,
  project: ProjectRecord,
  choice: ThemeChoice | undefined,
  missingStatus: 400 | 404 = 404,
): string | null {
  if (choice === false) return EMPTY_THEME_SOURCE;
  if (typeof choice === "string") return requireTheme(ctx, project.id, choice, missingStatus).tsxSource;
  return activeThemeSource(ctx, project);
}

export function recipientProps(user: UserRecord | null): { displayName: string | null } {
  return { displayName: user?.displayName ?? null };
}

/**
 * POST /emails/render-email: one of a theme id or source and one of a template id or source (the route checks the
 * combinations); a missing theme or template is a plain-text 400. A preview fills missing variables from PreviewVariables.
 * The sources are read here; they render once the store's lock is released (domain/ops/outside-lock.ts).
 */
export function renderEmailPreview(
  ctx: OpContext,
  project: ProjectRecord,
  body: RenderEmailRequest,
): OutsideLock<RenderedEmail> {
  const themeSource = body.theme_tsx_source ?? themeSourceFor(ctx, project, body.theme_id, 400);
  const templateSource =
    body.template_tsx_source ??
    (body.template_id !== undefined
      ? requireTemplate(ctx, project.id, body.template_id, () => refusal("templateNotFoundToRender")).tsxSource
      : undefined);
  if (templateSource === undefined)
    throw knownError("SCHEMA_ERROR", { message: "Either template_id or template_tsx_source must be provided" });
  const input = {
    themeSource,
    templateSource,
    project: { displayName: project.displayName },
    projectLogos: projectLogosOf(project),
    preview: true,
    ...renderTimeLimit(ctx),
  };
  return outsideLock(
    () => renderEmailSources(input),
    (_after, rendered) => rendered,
  );
}

/**
 * PATCH /internal/email-templates/{id}: needs a custom email server; the template must exist; the new source must render
 * with the project's active theme, with a Subject and a NotificationCategory, before it is stored. It renders outside
 * the store's lock; the template is read again to store it (it may have changed or gone meanwhile).
 */
export function updateTemplateSource(
  ctx: OpContext,
  project: ProjectRecord,
  templateId: string,
  body: { tsx_source: string; theme_id?: ThemeChoice | undefined },
): OutsideLock<{ renderedHtml: string }> {
  requireCustomEmailServer(project);
  requireTemplate(ctx, project.id, templateId);
  const input = {
    themeSource: activeThemeSource(ctx, project),
    templateSource: body.tsx_source,
    project: { displayName: project.displayName },
    projectLogos: projectLogosOf(project),
    preview: true,
    ...renderTimeLimit(ctx),
  };
  return outsideLock(
    () => renderEmailSources(input),
    (after, rendered) => {
      if (rendered.subject === undefined)
        throw renderingError("Subject is required, import it from @stackframe/emails");
      if (rendered.notificationCategory === undefined)
        throw renderingError("NotificationCategory is required, import it from @stackframe/emails");
      const template: EmailTemplateRecord = requireTemplate(after, project.id, templateId);
      const themeId = body.theme_id === undefined ? template.themeId : body.theme_id;
      saveTemplate(after, { ...template, tsxSource: body.tsx_source, themeId });
      return { renderedHtml: rendered.html };
    },
  );
}

/**
 * PATCH /internal/email-themes/{id}: the theme must render around sample content before it is stored; answers its name.
 * It renders outside the store's lock, and the theme is read again to store it.
 */
export function updateThemeSource(
  ctx: OpContext,
  project: ProjectRecord,
  themeId: string,
  tsxSource: string,
): OutsideLock<EmailThemeRecord> {
  requireTheme(ctx, project.id, themeId);
  const input = {
    themeSource: tsxSource,
    templateSource: SAMPLE_CONTENT_SOURCE,
    project: { displayName: project.displayName },
    preview: true,
    ...renderTimeLimit(ctx),
  };
  return outsideLock(
    () => renderEmailSources(input),
    (after) => {
      const next = { ...requireTheme(after, project.id, themeId), tsxSource };
      saveTheme(after, next);
      return next;
    },
  );
}
