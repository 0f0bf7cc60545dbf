import type { Script } from "node:vm";
import { BOOTSTRAP, REACT_EMAIL_MODULE, STACK_EMAILS_MODULE } from "./context-sources.ts";
import { EmailRenderTimeout, type EmailEngine, type EmailEngineLoader } from "./engine.ts";
import { TEMPLATE_IMPORTS } from "./template-imports.ts";

/**
 * The Node engine (engine.ts). sucrase compiles the TSX. Everything else runs in a fresh node:vm context per render:
 * React 19 and ReactDOMServer are evaluated there from their CommonJS builds, and the email's module is made with that
 * context's `new Function`, given only a `require` for react, react/jsx-runtime, @react-email/components and
 * @stackframe/emails. No object of the provider's realm is handed in (inputs cross as JSON, results as strings), so the
 * email's code reaches no `process`, `require` or host `Function`. The compiler, vm and React sources are loaded on
 * first use: a provider that never renders an email never loads them.
 */
const factory = (body: string) => `(function (require, module, exports) {${body}\n})`;

let engine: Promise<EmailEngine> | null = null;

export const loadEmailEngine: EmailEngineLoader = () => {
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
    const bootstrap = new vm.Script(BOOTSTRAP, { filename: "email-bootstrap.js" });

    return {
      compile: (source, filePath) =>
        sucrase.transform(source, { transforms: ["typescript", "jsx", "imports"], jsxRuntime: "automatic", production: true, filePath }).code,
      run: ({ templateCode, themeCode, inputJson, timeoutMillis }) => {
        // A context per render: nothing one email defines is seen by the next. It starts with the language's globals only.
        const context = vm.createContext({});
        const factories = vm.runInContext("({})", context) as Record<string, unknown>;
        for (const [id, script] of libraries) factories[id] = script.runInContext(context);
        const allowed = vm.runInContext(JSON.stringify(TEMPLATE_IMPORTS), context) as unknown;
        (bootstrap.runInContext(context) as (f: unknown, a: unknown) => void)(factories, allowed);
        vm.runInContext("globalThis.console = { log() {}, info() {}, warn() {}, error() {}, debug() {} };", context);
        Object.assign(context, { __templateCode: templateCode, __themeCode: themeCode, __input: inputJson });
        try {
          return vm.runInContext("__renderEmail(__templateCode, __themeCode, __input)", context, { timeout: timeoutMillis });
        } catch (error) {
          const timedOut = typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
          throw timedOut ? new EmailRenderTimeout() : error;
        }
      },
    };
  })();
  return engine;
};
