import type { RenderEmailRequest, ThemeChoice } from "@authsim/sdk/contract";
import { knownError } from "../http/known-error.ts";
import { SAMPLE_CONTENT_SOURCE } from "../email/default-sources.ts";
import { renderEmailSources, type RenderedEmail } from "../email/render/sandbox.ts";
import type { EmailTemplateRecord, EmailThemeRecord } from "../store/admin-records.ts";
import type { ProjectRecord, UserRecord } from "../store/records.ts";
import type { OpContext } from "./context.ts";
import { findTheme, requireTemplate, requireTheme, saveTemplate, saveTheme } from "./email-content.ts";

/**
 * Rendering with a project's themes and templates (protocol.md §5.12): POST /emails/render-email, the checks made when a
 * template or theme is saved, and sending (ops/email-sending.ts). Bad source is EMAIL_RENDERING_ERROR (400) with the
 * compiler's or the runtime's message, and nothing is saved.
 */

/** A theme choice as the wire gives it: an id, null (the project's selected theme) or false (no theme). */
export function themeSourceFor(ctx: OpContext, project: ProjectRecord, choice: ThemeChoice | undefined): string | null {
  if (choice === false) return null;
  if (typeof choice === "string") return requireTheme(ctx, project.id, choice).tsxSource;
  return findTheme(ctx, project.id, project.config.email_theme)?.tsxSource ?? null;
}

export function recipientProps(user: UserRecord | null): { displayName: string | null } {
  return { displayName: user?.displayName ?? null };
}

/** POST /emails/render-email: sources win over ids; a preview fills missing variables from PreviewVariables. */
export async function renderEmailPreview(ctx: OpContext, project: ProjectRecord, body: RenderEmailRequest): Promise<RenderedEmail> {
  const themeSource = body.theme_tsx_source ?? themeSourceFor(ctx, project, body.theme_id);
  const templateSource = body.template_tsx_source ?? (body.template_id !== undefined ? requireTemplate(ctx, project.id, body.template_id).tsxSource : undefined);
  if (templateSource === undefined) throw knownError("SCHEMA_ERROR", { message: "Either template_id or template_tsx_source must be given." });
  return renderEmailSources({ themeSource, templateSource, project: { displayName: project.displayName }, preview: true });
}

/** PATCH /internal/email-templates/{id}: the new source must render (with its theme) before it is stored. */
export async function updateTemplateSource(
  ctx: OpContext,
  project: ProjectRecord,
  template: EmailTemplateRecord,
  body: { tsx_source: string; theme_id?: ThemeChoice | undefined },
): Promise<{ renderedHtml: string }> {
  const themeId = body.theme_id === undefined ? template.themeId : body.theme_id;
  const rendered = await renderEmailSources({
    themeSource: themeSourceFor(ctx, project, themeId),
    templateSource: body.tsx_source,
    project: { displayName: project.displayName },
    preview: true,
  });
  saveTemplate(ctx, { ...template, tsxSource: body.tsx_source, themeId });
  return { renderedHtml: rendered.html };
}

/** PATCH /internal/email-themes/{id}: the theme must render around sample content before it is stored. */
export async function updateThemeSource(ctx: OpContext, project: ProjectRecord, theme: EmailThemeRecord, tsxSource: string): Promise<void> {
  await renderEmailSources({ themeSource: tsxSource, templateSource: SAMPLE_CONTENT_SOURCE, project: { displayName: project.displayName } });
  saveTheme(ctx, { ...theme, tsxSource });
}
