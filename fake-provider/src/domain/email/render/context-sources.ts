import { XHTML_DOCTYPE } from "./doctype.ts";

/**
 * JavaScript that runs inside an email's QuickJS sandbox (quickjs-render.ts), as source text: every object and function
 * the email's code can reach is made there, in a heap of its own, and none leads back to the provider (there is no
 * `process`, `require` or host `Function` to reach). Each `*_MODULE` is a CommonJS factory body, given `require`,
 * `module` and `exports`. Nothing here is a security boundary: an email may rewrite any of it for its own render; the
 * boundary is the sandbox, and the host reads back nothing but strings.
 */

/**
 * `@stackframe/emails`, as the real service provides it to emails. Subject and NotificationCategory render nothing:
 * the subject and category are read from the template's element tree after rendering (`componentValue` in BOOTSTRAP),
 * which finds them by their `__stackComponent` mark. Logo and FullLogo are react-email images with the class names the
 * real ones carry (a theme's Tailwind styles them); ProjectLogo picks one of the project's logos by mode, the full logo
 * first. Props and ThemeProps are types only, erased by the compiler.
 */
export const STACK_EMAILS_MODULE = `
const React = require("react");
const { Img } = require("@react-email/img");
const Subject = function Subject() { return null; };
Subject.__stackComponent = "Subject";
const NotificationCategory = function NotificationCategory() { return null; };
NotificationCategory.__stackComponent = "NotificationCategory";
function Logo(props) {
  return React.createElement("div", { className: "flex gap-2 items-center" }, React.createElement(Img, { src: props.logoUrl, alt: "Logo", className: "h-8" }));
}
function FullLogo(props) {
  return React.createElement(Img, { src: props.logoFullUrl, alt: "Full Logo", className: "h-16" });
}
function ProjectLogo(props) {
  const mode = props.mode === undefined ? "light" : props.mode;
  const logos = props.data || {};
  if (mode === "dark" && logos.logoFullDarkModeUrl) return React.createElement(FullLogo, { logoFullUrl: logos.logoFullDarkModeUrl });
  if (mode === "dark" && logos.logoDarkModeUrl) return React.createElement(Logo, { logoUrl: logos.logoDarkModeUrl });
  if (mode === "light" && logos.logoFullUrl) return React.createElement(FullLogo, { logoFullUrl: logos.logoFullUrl });
  if (mode === "light" && logos.logoUrl) return React.createElement(Logo, { logoUrl: logos.logoUrl });
  return null;
}
Object.assign(exports, { Subject, NotificationCategory, Logo, FullLogo, ProjectLogo });
`;

/**
 * \`arktype\`, as templates use it to declare their variables (\`export const variablesSchema = type({ … })\`): \`type(definition)\`
 * answers a callable schema that accepts what it is given; the definition is kept, the variables are not checked.
 */
export const ARKTYPE_MODULE = `
function type(definition) {
  const schema = function (data) { return data; };
  schema.definition = definition;
  schema.infer = undefined;
  schema.assert = function (data) { return data; };
  schema.allows = function () { return true; };
  return schema;
}
exports.type = type;
exports.scope = function () { return { type: type, export: function () { return {}; } }; };
`;

/**
 * `@react-email/components`: the real component packages' exports, each read from its package when first used, so that
 * an email that never touches Tailwind, CodeBlock or Markdown never evaluates them (the sandbox loads those only for the
 * emails that name them, library-files.ts). `packages` is [package id, export names] in the real index's order; the
 * first package to export a name wins, as there.
 */
export function reactEmailIndexSource(packages: readonly (readonly [string, readonly string[]])[]): string {
  return `
const packages = ${JSON.stringify(packages)};
for (const [id, names] of packages)
  for (const name of names)
    if (!Object.prototype.hasOwnProperty.call(exports, name))
      Object.defineProperty(exports, name, { enumerable: true, get: () => require(id)[name] });
`;
}

/**
 * `@react-email/render`'s `render` for an email that calls it itself: the document type and React's server markup, as
 * the real one answers; its plain-text mode needs html-to-text, which the sandbox does not hold.
 */
export const REACT_EMAIL_RENDER_MODULE = `
const React = require("react");
exports.render = async function render(node, options) {
  if (options && options.plainText) throw new Error("render(element, { plainText: true }) is not available inside an email");
  const html = require("react-dom/server").renderToString(React.createElement(React.Suspense, null, node));
  return ${JSON.stringify(XHTML_DOCTYPE)} + html.replace(/<!DOCTYPE.*?>/, "");
};
`;

/**
 * Called with the library factories (id → CommonJS factory), the ids an email may import, and the ids this sandbox left
 * out (the heavy libraries of library-files.ts an email did not name); answers the steps the host calls, each answering a
 * JSON string (the host's only way in is strings, and its only way out is one string):
 * - `preload()` evaluates every library given, and starts Tailwind's stylesheet, before the email's time starts: `{}`
 *   or `{ error }`.
 * - `load(templateCode, themeCode)` evaluates the email's modules: `{}`, `{ needs: id }` or `{ error }`. Library
 *   modules may require each other; an email's code may import only `TEMPLATE_IMPORTS`, made with `new Function`
 *   and that require.
 * - `render(inputJson)` renders as react-email's `render()` does, React's server markup of the email inside a Suspense
 *   boundary: `{ html, subject, notificationCategory }`, `{ suspended: true }` when a component is still waiting on a
 *   promise (Tailwind compiles its CSS asynchronously: the host runs the promise jobs and asks again, as the streaming
 *   renderer would wait; the last pass answers the markup as it is), `{ needs: id }` when the email reached a library
 *   this sandbox left out, or `{ error }`.
 * The host runs the promise jobs queued by each step in between (quickjs-render.ts).
 */
export const BOOTSTRAP = `(function (factories, allowed, leftOut) {
  // Taken before the email's code runs, so that an email replacing them breaks only its own messages.
  const stringify = JSON.stringify, parse = JSON.parse, assign = Object.assign, hasOwn = Object.prototype.hasOwnProperty;
  const isArray = Array.isArray;
  const noop = function () {};
  globalThis.console = { log: noop, info: noop, warn: noop, error: noop, debug: noop };
  // Templates time things with performance.now() (the real service runs them where it exists); the sandbox's own clock.
  const started = Date.now();
  globalThis.performance = { now: () => Date.now() - started };
  // Tailwind's compiler clones its options with structuredClone, which QuickJS lacks; they are plain data.
  if (typeof globalThis.structuredClone !== "function") globalThis.structuredClone = (value) => parse(stringify(value));
  const cache = {};
  let needed = null;
  function load(id) {
    if (hasOwn.call(cache, id)) return cache[id].exports;
    if (!hasOwn.call(factories, id)) {
      if (leftOut.indexOf(id) >= 0 && needed === null) needed = id;
      throw new Error('The module "' + id + '" is not loaded in this sandbox.');
    }
    const module = { exports: {} };
    cache[id] = module;
    factories[id](load, module, module.exports);
    return module.exports;
  }
  function emailRequire(id) {
    if (allowed.indexOf(id) < 0) throw new Error('Cannot import "' + id + '" in an email; the available modules are ' + allowed.join(", ") + ".");
    return load(id);
  }
  const message = (e) => (e && typeof e === "object" && "message" in e ? String(e.message) : String(e));
  function preload() {
    try {
      for (const id in factories) load(id);
      // Tailwind compiles its stylesheet on first use, asynchronously, and keeps it for the module's life (for its
      // default config): started here, the host runs those jobs before the email's time starts. The compiler holds no
      // class of any email yet, as in a fresh real render.
      if (hasOwn.call(factories, "@react-email/tailwind")) {
        const React = load("react");
        const tailwind = React.createElement(load("@react-email/tailwind").Tailwind, null, React.createElement("head"));
        load("react-dom/server").renderToString(React.createElement(React.Suspense, null, tailwind));
      }
    } catch (e) {
      return { error: "The email's libraries failed to load: " + message(e) };
    }
    return {};
  }
  function evaluate(code, name) {
    const module = { exports: {} };
    try {
      new Function("require", "module", "exports", code)(emailRequire, module, module.exports);
    } catch (e) {
      return { error: "The " + name + " failed to load: " + message(e) };
    }
    return { exports: module.exports };
  }
  let TemplateModule = null, Template = null, Theme = null;
  function loadEmail(templateCode, themeCode) {
    const template = evaluate(templateCode, "template");
    if (template.error) return template;
    TemplateModule = template.exports;
    Template = TemplateModule.EmailTemplate;
    if (typeof Template !== "function") return { error: "The template must export a function component named EmailTemplate." };
    if (themeCode !== null) {
      const theme = evaluate(themeCode, "theme");
      if (theme.error) return theme;
      // A theme without the export fails the real service's build with the bundler's words; one that exports
      // something else fails when it renders.
      if (!hasOwn.call(theme.exports, "EmailTheme")) return { error: 'Build failed with 1 error:\\nvirtual:/render.tsx:9:9: ERROR: No matching export in "virtual:/theme.tsx" for import "EmailTheme"' };
      Theme = theme.exports.EmailTheme;
      if (typeof Theme !== "function") return { error: "The theme must export a function component named EmailTheme." };
    }
    return {};
  }
  // The value of the one Subject or NotificationCategory (by its __stackComponent mark) in what the template returns,
  // looking through elements' children but not into other components, as the real service finds them.
  function componentValue(React, element, name) {
    const found = [];
    const visit = (node) => {
      if (!React.isValidElement(node)) return;
      const type = node.type;
      if (type && typeof type === "function" && "__stackComponent" in type && type.__stackComponent === name) found.push(node);
      const children = node.props ? node.props.children : undefined;
      if (isArray(children)) children.forEach((child) => visit(child));
      else if (children) visit(children);
    };
    visit(element.type(element.props || {}));
    if (found.length === 0) return undefined;
    if (found.length !== 1) throw new Error('Expected exactly one occurrence of component "' + name + '", found ' + found.length + ".");
    const value = found[0].props ? found[0].props.value : undefined;
    if (typeof value !== "string") throw new Error('The "value" prop of "' + name + '" must be a string.');
    return value;
  }
  let element = null;
  function renderEmail(inputJson) {
    const input = parse(inputJson);
    const React = load("react");
    try {
      if (element === null) {
        const schema = TemplateModule.variablesSchema;
        const previewVariables = input.preview ? Template.PreviewVariables : undefined;
        // Without a variablesSchema export the template gets no variables, as upstream's.
        const variables = schema ? schema(assign({}, previewVariables, input.variables)) : {};
        const content = React.createElement(Template, { variables, user: input.user, project: input.project });
        const previewProps = input.preview ? Theme && Theme.PreviewProps : undefined;
        const themeProps = input.preview
          ? assign({ projectLogos: input.projectLogos || {} }, previewProps)
          : { unsubscribeLink: input.unsubscribeLink, projectLogos: input.projectLogos || {} };
        const children = previewProps && previewProps.children != null ? previewProps.children : content;
        element = { content, email: Theme ? React.createElement(Theme, themeProps, children) : content };
      }
      const server = load("react-dom/server");
      // What React reports while rendering (library-files.ts hooks its legacy renderer): the first thing a component
      // threw fails the render, as react-email's render() fails; the renderer's own note that a boundary was still
      // waiting on a promise (a string) means the host runs the promise jobs and asks again, as the streaming one waits.
      let reported = null;
      server.onRenderError = (error) => { if (reported === null) reported = { error }; };
      const html = server.renderToString(React.createElement(React.Suspense, null, element.email));
      server.onRenderError = undefined;
      if (needed !== null) return { needs: needed };
      if (reported !== null) {
        if (typeof reported.error !== "string") throw reported.error;
        if (!input.lastPass) return { suspended: true };
      }
      return {
        html: String(html),
        subject: componentValue(React, element.content, "Subject"),
        notificationCategory: componentValue(React, element.content, "NotificationCategory"),
      };
    } catch (e) {
      if (needed !== null) return { needs: needed };
      return { error: "The email failed to render: " + message(e) };
    }
  }
  return {
    preload: () => stringify(preload()),
    load: (templateCode, themeCode) => {
      const loaded = loadEmail(templateCode, themeCode);
      return stringify(needed !== null ? { needs: needed } : loaded);
    },
    render: (inputJson) => stringify(renderEmail(inputJson)),
  };
})`;
