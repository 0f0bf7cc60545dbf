import { loadEmailEngine } from "#email-engine";
import { knownError, type KnownErrorException } from "../../http/known-error.ts";
import { EmailRenderTimeout, type EmailEngine } from "./engine.ts";
import { htmlToText } from "./html-text.ts";

/**
 * Renders an email from its TSX theme and template sources for real (protocol.md §5.12, spec §8 EMAIL_RENDERING_ERROR).
 * The runtime's engine (engine.ts; in Node sucrase and a fresh node:vm context per render, node-engine.ts) compiles the
 * TSX — a syntax error's message is the compiler's, with line and column — and runs it isolated from the provider.
 * Loading and rendering are bounded in time together, so an email that loops forever fails instead of hanging the
 * provider. Where the runtime has no engine (a browser), rendering answers EMAIL_RENDERING_ERROR saying so.
 */

export const RENDER_TIME_LIMIT_MILLIS = 1_000;

export { TEMPLATE_IMPORTS } from "./template-imports.ts";

export interface RenderInput {
  /** The theme's TSX source (exports EmailTheme), or null for no theme. */
  themeSource: string | null;
  /** The template's TSX source (exports EmailTemplate). */
  templateSource: string;
  variables?: Record<string, unknown>;
  user?: { displayName: string | null };
  project: { displayName: string };
  unsubscribeLink?: string;
  /** Fills variables the caller did not give from the template's `EmailTemplate.PreviewVariables` (dashboard preview). */
  preview?: boolean;
}

export interface RenderedEmail {
  html: string;
  text: string;
  subject?: string;
  notificationCategory?: string;
}

export function renderingError(message: string): KnownErrorException {
  return knownError("EMAIL_RENDERING_ERROR", { error: message });
}

function compile(e: EmailEngine, source: string, name: "theme" | "template"): string {
  try {
    return e.compile(source, `${name}.tsx`);
  } catch (error) {
    throw renderingError(`Could not compile the ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/** A field of an object made in the context, read as a string (or undefined). */
function field(result: unknown, key: string): string | undefined {
  const value = typeof result === "object" && result !== null ? (result as Record<string, unknown>)[key] : undefined;
  return value === undefined || value === null ? undefined : String(value);
}

export async function renderEmailSources(input: RenderInput): Promise<RenderedEmail> {
  let e: EmailEngine;
  try {
    e = await loadEmailEngine();
  } catch (error) {
    throw renderingError(`Cannot render emails here: ${error instanceof Error ? error.message : String(error)}`);
  }
  const templateCode = compile(e, input.templateSource, "template");
  const themeCode = input.themeSource === null ? null : compile(e, input.themeSource, "theme");
  const inputJson = JSON.stringify({
    variables: input.variables ?? {},
    user: input.user ?? { displayName: null },
    project: input.project,
    unsubscribeLink: input.unsubscribeLink,
    preview: input.preview ?? false,
  });
  let result: unknown;
  try {
    result = e.run({ templateCode, themeCode, inputJson, timeoutMillis: RENDER_TIME_LIMIT_MILLIS });
  } catch (error) {
    throw renderingError(
      error instanceof EmailRenderTimeout
        ? `rendering took longer than ${RENDER_TIME_LIMIT_MILLIS} ms and was stopped`
        : `The email failed to render: ${field(error, "message") ?? String(error)}`,
    );
  }
  const failure = field(result, "error");
  if (failure !== undefined) throw renderingError(failure);
  const markup = field(result, "html") ?? "";
  const html = markup.startsWith("<html") ? `${DOCTYPE}${markup}` : markup;
  const subject = field(result, "subject");
  const notificationCategory = field(result, "notificationCategory");
  return {
    html,
    text: htmlToText(html),
    ...(subject !== undefined ? { subject } : {}),
    ...(notificationCategory !== undefined ? { notificationCategory } : {}),
  };
}
