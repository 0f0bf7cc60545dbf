/**
 * JavaScript that runs inside an email's vm context (sandbox.ts), as source text so that every object and function the
 * email's code can reach is made in that context's realm: none leads back to the provider's globals (no `process`,
 * no host `Function`). Each `*_MODULE` is a CommonJS factory body, given `require`, `module` and `exports`.
 */

/**
 * `@stackframe/emails`: Subject and NotificationCategory set the email's subject and category (into the render's
 * `globalThis.__emailCollected`) and render nothing. Props is a type only, erased by the compiler.
 */
export const STACK_EMAILS_MODULE = `
exports.Subject = function Subject(props) { globalThis.__emailCollected.subject = String(props.value); return null; };
exports.NotificationCategory = function NotificationCategory(props) { globalThis.__emailCollected.notificationCategory = String(props.value); return null; };
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
 * Defines \`globalThis.__renderEmail(templateCode, themeCode, inputJson)\` in the context. Library modules may require
 * each other; an email's code may import only \`TEMPLATE_IMPORTS\`, through \`new Function\` with that require injected.
 * It answers \`{ html, subject, notificationCategory }\` or \`{ error }\` (a string), never a host object.
 */
export const BOOTSTRAP = `(function (factories, allowed) {
  const cache = {};
  function load(id) {
    if (Object.prototype.hasOwnProperty.call(cache, id)) return cache[id].exports;
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
  globalThis.__renderEmail = function (templateCode, themeCode, inputJson) {
    const input = JSON.parse(inputJson);
    const React = load("react");
    const template = evaluate(templateCode, "template");
    if (template.error) return template;
    const Template = template.exports.EmailTemplate;
    if (typeof Template !== "function") return { error: "The template must export a function component named EmailTemplate." };
    let Theme = null;
    if (themeCode !== null) {
      const theme = evaluate(themeCode, "theme");
      if (theme.error) return theme;
      Theme = theme.exports.EmailTheme;
      if (typeof Theme !== "function") return { error: "The theme must export a function component named EmailTheme." };
    }
    const preview = input.preview && Template.PreviewVariables && typeof Template.PreviewVariables === "object" ? Template.PreviewVariables : {};
    const variables = Object.assign({}, preview, input.variables);
    const content = React.createElement(Template, { variables, user: input.user, project: input.project, unsubscribeLink: input.unsubscribeLink });
    const element = Theme ? React.createElement(Theme, { unsubscribeLink: input.unsubscribeLink }, content) : content;
    globalThis.__emailCollected = {};
    try {
      const html = load("react-dom/server").renderToStaticMarkup(element);
      return { html, subject: globalThis.__emailCollected.subject, notificationCategory: globalThis.__emailCollected.notificationCategory };
    } catch (e) {
      return { error: "The email failed to render: " + message(e) };
    }
  };
})`;
