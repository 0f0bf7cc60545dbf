import type { Script } from "node:vm";
import { knownError, type KnownErrorException } from "../../http/known-error.ts";
import { BOOTSTRAP, REACT_EMAIL_MODULE, STACK_EMAILS_MODULE } from "./context-sources.ts";
import { htmlToText } from "./html-text.ts";

/**
 * Renders an email from its TSX theme and template sources for real (protocol.md §5.12, spec §8 EMAIL_RENDERING_ERROR).
 * sucrase compiles the TSX (a syntax error's message is the compiler's, with line and column). Everything else runs in
 * a fresh node:vm context per render: React 19 and ReactDOMServer are evaluated there from their CommonJS builds, and the
 * email's module is made with that context's `new Function`, given only a `require` for react, react/jsx-runtime,
 * @react-email/components and @stackframe/emails. No object of the provider's realm is handed in (inputs cross as JSON,
 * results as strings), so the email's code reaches no `process`, `require` or host `Function`. Loading and rendering
 * are bounded in time together, so an email that loops forever fails instead of hanging the provider.
 *
 * The compiler, vm and React sources are loaded on first use: a provider that never renders an email never loads them.
 */

export const RENDER_TIME_LIMIT_MILLIS = 1_000;

export const TEMPLATE_IMPORTS = ["react", "react/jsx-runtime", "@react-email/components", "@stackframe/emails"];

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
  /** Library modules by id, compiled once and run in each context. */
  libraries: [string, Script][];
  bootstrap: Script;
}

const factory = (body: string) => `(function (require, module, exports) {${body}\n})`;

let engine: Promise<Engine> | null = null;
function loadEngine(): Promise<Engine> {
  engine ??= (async () => {
    const [sucrase, vm, fs, nodeModule, path] = await Promise.all([import("sucrase"), import("node:vm"), import("node:fs"), import("node:module"), import("node:path")]);
    const resolve = nodeModule.createRequire(import.meta.url);
    const react = path.dirname(resolve.resolve("react/package.json"));
    const reactDom = path.dirname(resolve.resolve("react-dom/package.json"));
    // The production CommonJS builds: they read no `process.env` and need nothing but each other.
    const files: [string, string][] = [
      ["react", path.join(react, "cjs/react.production.js")],
      ["react/jsx-runtime", path.join(react, "cjs/react-jsx-runtime.production.js")],
      ["react-dom", path.join(reactDom, "cjs/react-dom.production.js")],
      ["react-dom/server", path.join(reactDom, "cjs/react-dom-server-legacy.browser.production.js")],
    ];
    const libraries: [string, Script][] = files.map(([id, file]) => [id, new vm.Script(factory(fs.readFileSync(file, "utf8")), { filename: file })]);
    libraries.push(["@react-email/components", new vm.Script(factory(REACT_EMAIL_MODULE), { filename: "react-email-components.js" })]);
    libraries.push(["@stackframe/emails", new vm.Script(factory(STACK_EMAILS_MODULE), { filename: "stackframe-emails.js" })]);
    return { transform: sucrase.transform, vm, libraries, bootstrap: new vm.Script(BOOTSTRAP, { filename: "email-bootstrap.js" }) };
  })();
  return engine;
}

export function renderingError(message: string): KnownErrorException {
  return knownError("EMAIL_RENDERING_ERROR", { error: message });
}

function compile(e: Engine, source: string, name: "theme" | "template"): string {
  try {
    return e.transform(source, { transforms: ["typescript", "jsx", "imports"], jsxRuntime: "automatic", production: true, filePath: `${name}.tsx` }).code;
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
  const e = await loadEngine();
  const templateCode = compile(e, input.templateSource, "template");
  const themeCode = input.themeSource === null ? null : compile(e, input.themeSource, "theme");

  // A context per render: nothing one email defines is seen by the next. It starts with the language's globals only.
  const context = e.vm.createContext({});
  const factories = e.vm.runInContext("({})", context) as Record<string, unknown>;
  for (const [id, script] of e.libraries) factories[id] = script.runInContext(context);
  const allowed = e.vm.runInContext(JSON.stringify(TEMPLATE_IMPORTS), context) as unknown;
  (e.bootstrap.runInContext(context) as (f: unknown, a: unknown) => void)(factories, allowed);
  e.vm.runInContext("globalThis.console = { log() {}, info() {}, warn() {}, error() {}, debug() {} };", context);

  const json = JSON.stringify({
    variables: input.variables ?? {},
    user: input.user ?? { displayName: null },
    project: input.project,
    unsubscribeLink: input.unsubscribeLink,
    preview: input.preview ?? false,
  });
  Object.assign(context, { __templateCode: templateCode, __themeCode: themeCode, __input: json });
  let result: unknown;
  try {
    result = e.vm.runInContext("__renderEmail(__templateCode, __themeCode, __input)", context, { timeout: RENDER_TIME_LIMIT_MILLIS });
  } catch (error) {
    const timedOut = typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
    throw renderingError(timedOut ? `rendering took longer than ${RENDER_TIME_LIMIT_MILLIS} ms and was stopped` : `The email failed to render: ${field(error, "message") ?? String(error)}`);
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
