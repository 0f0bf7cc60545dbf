import { loadEmailEngine } from "#email-engine";
import { knownError, type KnownErrorException } from "../../errors/known-error.ts";
import type { EmailEngine, RenderLimit, RenderLimits, RenderOutcome } from "./engine.ts";
import { XHTML_DOCTYPE } from "./doctype.ts";

/**
 * Renders an email from its TSX theme and template sources for real (protocol.md §5.12, spec §8 EMAIL_RENDERING_ERROR).
 * The runtime's engine (engine.ts; in Node esbuild, and QuickJS in WebAssembly in a worker thread, quickjs-engine.ts)
 * compiles the TSX — a syntax error's message is the compiler's, with line and column — and runs it in a sandbox of its
 * own, fresh per render.
 * The limits below bound what an email may take; whatever it does, the answer is the email or EMAIL_RENDERING_ERROR with
 * what went wrong, never a provider error or a hang. Where the runtime has no engine (a browser), rendering answers
 * EMAIL_RENDERING_ERROR saying so.
 */

/**
 * The real service gives an email's code 30 s; its own tests render templates that busy-wait 2 s on purpose (to catch
 * an email in the queue). Five seconds runs those while a runaway email still stops soon (it runs on a thread of its
 * own, quickjs-engine.ts).
 */
export const RENDER_TIME_LIMIT_MILLIS = 5_000;

export const RENDER_LIMITS: RenderLimits = {
  timeMillis: RENDER_TIME_LIMIT_MILLIS,
  // React and ReactDOMServer take about 5 MiB of it; a large email a few more.
  memoryBytes: 64 * 1024 * 1024,
  // About 1,500 plain calls deep, or elements nested some 150 deep; kept well inside the host's own stack (quickjs-render.ts).
  stackBytes: 256 * 1024,
  promiseJobs: 10_000,
  htmlChars: 2 * 1024 * 1024,
};

const limitMessages = (limits: RenderLimits): Record<RenderLimit, string> => ({
  timeMillis: `rendering took longer than ${limits.timeMillis} ms and was stopped`,
  memoryBytes: `rendering used more than ${RENDER_LIMITS.memoryBytes / 1024 / 1024} MiB of memory and was stopped`,
  stackBytes: "rendering recursed too deeply (stack overflow) and was stopped",
  promiseJobs: `rendering queued more than ${RENDER_LIMITS.promiseJobs} promise jobs and was stopped`,
  htmlChars: `the rendered email is larger than ${RENDER_LIMITS.htmlChars / 1024 / 1024} MiB`,
});

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
  /** The project's logos, given to the theme as `projectLogos` (its `ProjectLogo` shows one). */
  projectLogos?: { logoUrl?: string; logoFullUrl?: string; logoDarkModeUrl?: string; logoFullDarkModeUrl?: string };
  /**
   * A preview (dashboard, render-email, saving a template or theme), as upstream renders one: variables the caller did
   * not give come from the template's `EmailTemplate.PreviewVariables`, the theme's `EmailTheme.PreviewProps` are
   * added to its props (its `children` replacing the template), and the recipient is John Doe.
   */
  preview?: boolean;
  /** The render's time limit: the provider's `emailRenderTimeLimitMillis`, else RENDER_TIME_LIMIT_MILLIS. */
  timeLimitMillis?: number;
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

/**
 * Compiled sources by file name and text. An app renders the same few templates and themes over and over, and a
 * compile (esbuild, in a service process of its own) was most of a render: 40–160 ms for a theme and a template on a
 * busy machine, where running the compiled email took 30–60. Renders queue on one sandbox thread, so under the real
 * service's e2e suite emails reached the mailbox more than 15 s late. Only successful compiles are kept (a failed one
 * answers its error again, compiled afresh); at most COMPILED_CAPACITY sources of up to COMPILED_MAX_CHARS each, the
 * oldest going first. The compiled code is data: each render still runs it in a fresh sandbox.
 */
const COMPILED_CAPACITY = 200;
const COMPILED_MAX_CHARS = 256 * 1024;
const compiled = new Map<string, Promise<string>>();

function compileOnce(e: EmailEngine, source: string, file: string): Promise<string> {
  if (source.length > COMPILED_MAX_CHARS) return e.compile(source, file);
  const key = `${file}\u0000${source}`;
  let code = compiled.get(key);
  if (!code) {
    code = e.compile(source, file);
    compiled.set(key, code);
    const failed = code;
    failed.catch(() => {
      if (compiled.get(key) === failed) compiled.delete(key);
    });
    if (compiled.size > COMPILED_CAPACITY) compiled.delete(compiled.keys().next().value!);
  }
  return code;
}

/** A syntax error is the compiler's own report ("Build failed with 1 error:\nvirtual:/theme.tsx:4:12: ERROR: …"), as upstream's. */
async function compile(e: EmailEngine, source: string, name: "theme" | "template"): Promise<string> {
  try {
    return await compileOnce(e, source, `${name}.tsx`);
  } catch (error) {
    throw renderingError(error instanceof Error ? error.message : String(error));
  }
}

/** The recipient's name in a preview (render-email, saving a template or theme), as upstream's previews show it. */
export const PREVIEW_USER_NAME = "John Doe";

export async function renderEmailSources(input: RenderInput): Promise<RenderedEmail> {
  let e: EmailEngine;
  try {
    e = await loadEmailEngine();
  } catch (error) {
    throw renderingError(`Cannot render emails here: ${error instanceof Error ? error.message : String(error)}`);
  }
  const templateCode = await compile(e, input.templateSource, "template");
  const themeCode = input.themeSource === null ? null : await compile(e, input.themeSource, "theme");
  const inputJson = JSON.stringify({
    variables: input.variables ?? {},
    // A preview has no recipient: upstream shows its templates to a sample user of this name.
    user: input.user ?? { displayName: input.preview ? PREVIEW_USER_NAME : null },
    project: input.project,
    unsubscribeLink: input.unsubscribeLink,
    projectLogos: input.projectLogos ?? {},
    preview: input.preview ?? false,
  });
  const limits =
    input.timeLimitMillis === undefined ? RENDER_LIMITS : { ...RENDER_LIMITS, timeMillis: input.timeLimitMillis };
  let outcome: RenderOutcome;
  try {
    outcome = await e.run({ templateCode, themeCode, inputJson, limits });
  } catch (error) {
    // Engines answer outcomes; this is a fault of ours, still reported as the render's failure rather than a 500.
    outcome = { kind: "crashed", message: error instanceof Error ? error.message : String(error) };
  }
  switch (outcome.kind) {
    case "failed":
      throw renderingError(outcome.message);
    case "limit":
      throw renderingError(limitMessages(limits)[outcome.limit]);
    case "crashed":
      throw renderingError(`The email's sandbox failed: ${outcome.message}`);
  }
  const { html: markup, subject, notificationCategory } = outcome;
  // html-to-text and its HTML parser are a tenth of the dev server's code: loaded with the first email, not at start.
  const { plainTextOf } = await import("./plain-text.ts");
  let text: string;
  try {
    text = plainTextOf(markup);
  } catch (error) {
    // Markup nested deeper than the converter's recursion can go, say: the email's failure, not the provider's.
    throw renderingError(
      `The email's text could not be made: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return {
    // As react-email's render(): its document type first, in place of any the markup has.
    html: XHTML_DOCTYPE + markup.replace(/<!DOCTYPE.*?>/, ""),
    text,
    ...(subject !== undefined ? { subject } : {}),
    ...(notificationCategory !== undefined ? { notificationCategory } : {}),
  };
}
