import type * as ReactModule from "react";
import { knownError, type KnownErrorException } from "../../http/known-error.ts";
import { emailModules, type RenderCollector } from "./components.ts";
import { htmlToText } from "./html-text.ts";

/**
 * Renders an email from its TSX theme and template sources for real (protocol.md §5.12, spec §8 EMAIL_RENDERING_ERROR):
 * sucrase compiles the TSX (a syntax error's message is the compiler's, with line and column), the module runs in a
 * fresh node:vm context whose only way out is a `require` that hands over React and the email components (no process,
 * no require of anything else, no host globals), and React renders it to static HTML. Evaluation and rendering are
 * each bounded in time, so a template that loops forever fails instead of hanging the provider.
 *
 * The compiler, vm and React are imported on first use: a provider that never renders an email does not load them.
 */

export const RENDER_TIME_LIMIT_MILLIS = 1_000;

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

interface Engine {
  transform: (typeof import("sucrase"))["transform"];
  vm: typeof import("node:vm");
  React: typeof ReactModule;
  jsxRuntime: unknown;
  renderToStaticMarkup: (element: ReactModule.ReactElement) => string;
}

let engine: Promise<Engine> | null = null;
function loadEngine(): Promise<Engine> {
  engine ??= Promise.all([import("sucrase"), import("node:vm"), import("react"), import("react/jsx-runtime"), import("react-dom/server")]).then(
    ([sucrase, vm, React, jsxRuntime, server]) => ({ transform: sucrase.transform, vm, React, jsxRuntime, renderToStaticMarkup: server.renderToStaticMarkup }),
  );
  return engine;
}

const ALLOWED_IMPORTS = ["react", "react/jsx-runtime", "@react-email/components", "@stackframe/emails"];

export function renderingError(message: string): KnownErrorException {
  return knownError("EMAIL_RENDERING_ERROR", { error: message });
}

/** Messages of errors thrown inside the vm context (they are not instances of this realm's Error). */
function messageOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "message" in error) {
    const code = "code" in error ? (error as { code: unknown }).code : undefined;
    if (code === "ERR_SCRIPT_EXECUTION_TIMEOUT") return `rendering took longer than ${RENDER_TIME_LIMIT_MILLIS} ms and was stopped`;
    return String((error as { message: unknown }).message);
  }
  return String(error);
}

type Exports = Record<string, unknown>;

function evaluate(e: Engine, context: object, source: string, name: "theme" | "template", modules: Record<string, unknown>): Exports {
  let code: string;
  try {
    code = e.transform(source, { transforms: ["typescript", "jsx", "imports"], jsxRuntime: "automatic", production: true, filePath: `${name}.tsx` }).code;
  } catch (error) {
    throw renderingError(`Could not compile the ${name}: ${messageOf(error)}`);
  }
  const module = { exports: {} as Exports };
  const requireAllowed = (id: string): unknown => {
    if (Object.hasOwn(modules, id)) return modules[id];
    throw new Error(`Cannot import "${id}" in an email ${name}; the available modules are ${ALLOWED_IMPORTS.join(", ")}.`);
  };
  Object.assign(context, { __require: requireAllowed, __module: module });
  try {
    e.vm.runInContext(`(function (require, module, exports) {${code}\n})(__require, __module, __module.exports);`, context, {
      timeout: RENDER_TIME_LIMIT_MILLIS,
      filename: `${name}.tsx`,
    });
  } catch (error) {
    throw renderingError(`The ${name} failed to load: ${messageOf(error)}`);
  }
  return module.exports;
}

function exportedComponent(exports: Exports, exportName: string, name: string): ReactModule.FunctionComponent<Record<string, unknown>> {
  const component = exports[exportName];
  if (typeof component !== "function") throw renderingError(`The ${name} must export a function component named ${exportName}.`);
  return component as ReactModule.FunctionComponent<Record<string, unknown>>;
}

const DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

export async function renderEmailSources(input: RenderInput): Promise<RenderedEmail> {
  const e = await loadEngine();
  const collector: RenderCollector = {};
  const modules: Record<string, unknown> = { react: e.React, "react/jsx-runtime": e.jsxRuntime, ...emailModules(e.React, collector) };
  // A context per render: nothing one email defines can be seen by the next.
  const context = e.vm.createContext({ console: { log() {}, info() {}, warn() {}, error() {} } });
  const Template = exportedComponent(evaluate(e, context, input.templateSource, "template", modules), "EmailTemplate", "template");
  const Theme = input.themeSource === null ? null : exportedComponent(evaluate(e, context, input.themeSource, "theme", modules), "EmailTheme", "theme");

  const previewVariables = (Template as unknown as { PreviewVariables?: unknown }).PreviewVariables;
  const variables = {
    ...(input.preview && typeof previewVariables === "object" && previewVariables !== null ? (previewVariables as Record<string, unknown>) : {}),
    ...input.variables,
  };
  const h = e.React.createElement;
  const content = h(Template, { variables, user: input.user ?? { displayName: null }, project: input.project, unsubscribeLink: input.unsubscribeLink });
  const element = Theme ? h(Theme, { unsubscribeLink: input.unsubscribeLink }, content) : content;
  let markup: string;
  try {
    Object.assign(context, { __render: () => e.renderToStaticMarkup(element) });
    markup = e.vm.runInContext("__render()", context, { timeout: RENDER_TIME_LIMIT_MILLIS }) as string;
  } catch (error) {
    throw renderingError(`The email failed to render: ${messageOf(error)}`);
  }
  const html = markup.startsWith("<html") ? `${DOCTYPE}${markup}` : markup;
  return {
    html,
    text: htmlToText(html),
    ...(collector.subject !== undefined ? { subject: collector.subject } : {}),
    ...(collector.notificationCategory !== undefined ? { notificationCategory: collector.notificationCategory } : {}),
  };
}
