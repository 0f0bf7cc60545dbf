/**
 * JavaScript that runs inside an email's QuickJS sandbox (quickjs-render.ts), as source text: every object and function
 * the email's code can reach is made there, in a heap of its own, and none leads back to the provider (there is no
 * `process`, `require` or host `Function` to reach). Each `*_MODULE` is a CommonJS factory body, given `require`,
 * `module` and `exports`. Nothing here is a security boundary: an email may rewrite any of it for its own render; the
 * boundary is the sandbox, and the host reads back nothing but strings.
 */

/**
 * `@stackframe/emails`: Subject and NotificationCategory set the email's subject and category (into the render's
 * `globalThis.__emailCollected`) and render nothing. Props is a type only, erased by the compiler.
 */
export const STACK_EMAILS_MODULE = `
exports.Subject = function Subject(props) { globalThis.__emailCollected.subject = String(props.value); return null; };
exports.NotificationCategory = function NotificationCategory(props) { globalThis.__emailCollected.notificationCategory = String(props.value); return null; };
exports.ProjectLogo = function ProjectLogo(props) {
  const data = (props && props.data) || {};
  const dark = props && props.mode === "dark";
  const src = (dark ? data.logoFullDarkModeUrl || data.logoDarkModeUrl : null) || data.logoFullUrl || data.logoUrl;
  if (!src) return null;
  return require("react").createElement("img", { src: String(src), alt: "Logo", style: { maxHeight: "48px", marginBottom: "16px" } });
};
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
 * The \`@react-email/components\` most themes use: stand-ins that render react-email's table-based HTML shapes, without its
 * Tailwind-to-inline-CSS step (class names stay \`class\` attributes).
 */
export const REACT_EMAIL_MODULE = `
const React = require("react");
const h = React.createElement;
const split = (props) => { const { children, style, ...rest } = props; return [children, style, rest]; };
const table = (style, rest, children) =>
  h("table", Object.assign({ align: "center", width: "100%", border: 0, cellPadding: "0", cellSpacing: "0", role: "presentation" }, rest, { style }),
    h("tbody", null, h("tr", { style: { width: "100%" } }, h("td", null, children))));
exports.Html = (p) => { const [c, s, r] = split(p); return h("html", Object.assign({ lang: "en", dir: "ltr" }, r, { style: s }), c); };
exports.Head = (p) => { const [c, , r] = split(p); return h("head", r, h("meta", { content: "text/html; charset=UTF-8", httpEquiv: "Content-Type" }), h("meta", { name: "x-apple-disable-message-reformatting" }), c); };
exports.Body = (p) => { const [c, s, r] = split(p); return h("body", Object.assign({}, r, { style: s }), c); };
exports.Container = (p) => { const [c, s, r] = split(p); return table(Object.assign({ maxWidth: "37.5em" }, s), r, c); };
exports.Section = (p) => { const [c, s, r] = split(p); return table(s, r, c); };
exports.Row = (p) => { const [c, s, r] = split(p); return h("table", Object.assign({ align: "center", width: "100%", border: 0, cellPadding: "0", cellSpacing: "0", role: "presentation" }, r, { style: s }), h("tbody", { style: { width: "100%" } }, h("tr", { style: { width: "100%" } }, c))); };
exports.Column = (p) => { const [c, s, r] = split(p); return h("td", Object.assign({ "data-id": "__react-email-column" }, r, { style: s }), c); };
exports.Text = (p) => { const [c, s, r] = split(p); return h("p", Object.assign({}, r, { style: Object.assign({ fontSize: "14px", lineHeight: "24px", margin: "16px 0" }, s) }), c); };
exports.Link = (p) => { const [c, s, r] = split(p); return h("a", Object.assign({ target: "_blank" }, r, { style: Object.assign({ color: "#067df7", textDecorationLine: "none" }, s) }), c); };
exports.Button = (p) => { const [c, s, r] = split(p); return h("a", Object.assign({ target: "_blank" }, r, { style: Object.assign({ lineHeight: "100%", textDecoration: "none", display: "inline-block", maxWidth: "100%" }, s) }), h("span", null, c)); };
exports.Heading = (p) => { const [c, s, r] = split(p); const { as, ...rest } = r; return h(as || "h1", Object.assign({}, rest, { style: s }), c); };
exports.Hr = (p) => { const [, s, r] = split(p); return h("hr", Object.assign({}, r, { style: Object.assign({ width: "100%", border: "none", borderTop: "1px solid #eaeaea" }, s) })); };
exports.Img = (p) => { const [, s, r] = split(p); return h("img", Object.assign({}, r, { style: Object.assign({ display: "block", outline: "none", border: "none", textDecoration: "none" }, s) })); };
exports.Preview = (p) => h("div", { style: { display: "none", overflow: "hidden", lineHeight: "1px", opacity: 0, maxHeight: 0, maxWidth: 0 } }, p.children);
exports.Tailwind = (p) => h(React.Fragment, null, p.children);
exports.Font = () => null;
`;

/**
 * Called with the library factories (id → CommonJS factory) and the ids an email may import; answers the two steps the
 * host calls, each answering a JSON string (the host's only way in is strings, and its only way out is one string):
 * - \`load(templateCode, themeCode)\` evaluates the email's modules: \`{}\` or \`{ error }\`. Library modules may
 *   require each other; an email's code may import only \`TEMPLATE_IMPORTS\`, made with \`new Function\` and that require.
 * - \`render(inputJson)\` renders them with React's server renderer: \`{ html, subject, notificationCategory }\` or \`{ error }\`.
 * The host runs the promise jobs queued by each step in between (quickjs-render.ts).
 */
export const BOOTSTRAP = `(function (factories, allowed) {
  // Taken before the email's code runs, so that an email replacing them breaks only its own messages.
  const stringify = JSON.stringify, parse = JSON.parse, assign = Object.assign, hasOwn = Object.prototype.hasOwnProperty;
  const noop = function () {};
  globalThis.console = { log: noop, info: noop, warn: noop, error: noop, debug: noop };
  // Templates time things with performance.now() (the real service runs them where it exists); the sandbox's own clock.
  const started = Date.now();
  globalThis.performance = { now: () => Date.now() - started };
  const cache = {};
  function load(id) {
    if (hasOwn.call(cache, id)) return cache[id].exports;
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
  function evaluate(code, name) {
    const module = { exports: {} };
    try {
      new Function("require", "module", "exports", code)(emailRequire, module, module.exports);
    } catch (e) {
      return { error: "The " + name + " failed to load: " + message(e) };
    }
    return { exports: module.exports };
  }
  let Template = null, Theme = null;
  function loadEmail(templateCode, themeCode) {
    const template = evaluate(templateCode, "template");
    if (template.error) return template;
    Template = template.exports.EmailTemplate;
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
  function renderEmail(inputJson) {
    const input = parse(inputJson);
    const React = load("react");
    const preview = input.preview && Template.PreviewVariables && typeof Template.PreviewVariables === "object" ? Template.PreviewVariables : {};
    const variables = assign({}, preview, input.variables);
    const collected = (globalThis.__emailCollected = {});
    try {
      const content = React.createElement(Template, { variables, user: input.user, project: input.project, unsubscribeLink: input.unsubscribeLink });
      const element = Theme ? React.createElement(Theme, { unsubscribeLink: input.unsubscribeLink, projectLogos: input.projectLogos || {} }, content) : content;
      const html = load("react-dom/server").renderToStaticMarkup(element);
      return { html: String(html), subject: collected.subject, notificationCategory: collected.notificationCategory };
    } catch (e) {
      return { error: "The email failed to render: " + message(e) };
    }
  }
  return {
    load: (templateCode, themeCode) => stringify(loadEmail(templateCode, themeCode)),
    render: (inputJson) => stringify(renderEmail(inputJson)),
  };
})`;
