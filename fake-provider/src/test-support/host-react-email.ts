import { readFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname } from "node:path";

/**
 * react-email's own `render()` (@react-email/render 2.0.4, its Node build) run on the host, in V8, over the same
 * component packages the sandbox holds and React 19.1.1's production builds: the reference the sandbox's output is
 * compared with (domain/email/render/react-email-parity.test.ts). For trusted fixtures only: this is not a sandbox.
 *
 * A small CommonJS loader of its own, because the repository's hoisted `react` is another version (19.3.1, for the
 * React package), and the packages would otherwise find that one: here `react`, `react/jsx-runtime`, `react-dom` and
 * `react-dom/server` are always fake-provider's 19.1.1, and render's `import("react-dom/server")` is that require.
 */

const here = createRequire(import.meta.url);
const reactDir = dirname(here.resolve("react/package.json"));
const reactDomDir = dirname(here.resolve("react-dom/package.json"));
const pinned: Record<string, string> = {
  react: `${reactDir}/cjs/react.production.js`,
  "react/jsx-runtime": `${reactDir}/cjs/react-jsx-runtime.production.js`,
  "react-dom": `${reactDomDir}/cjs/react-dom.production.js`,
  // The streaming renderer render() uses in Node (renderToReadableStream).
  "react-dom/server": `${reactDomDir}/cjs/react-dom-server.node.production.js`,
};

type Module = { exports: Record<string, unknown> };
const cache = new Map<string, Module>();

function loadFile(file: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const cached = cache.get(file);
  if (cached) return cached.exports;
  const module: Module = { exports: {} };
  cache.set(file, module);
  if (file.endsWith(".json")) {
    module.exports = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    return module.exports;
  }
  const source = readFileSync(file, "utf8").replace(
    'import("react-dom/server")',
    'Promise.resolve(require("react-dom/server"))',
  );
  const require = (id: string) => requireFrom(file, id, extra);
  new Function("require", "module", "exports", "__filename", "__dirname", source)(
    require,
    module,
    module.exports,
    file,
    dirname(file),
  );
  return module.exports;
}

function requireFrom(from: string, id: string, extra: Record<string, unknown>): unknown {
  if (id in extra) return extra[id];
  if (id in pinned) return loadFile(pinned[id]!);
  if (id.startsWith("node:") || builtinModules.includes(id)) return here(id);
  return loadFile(createRequire(from).resolve(id), extra);
}

/** A package (or file) loaded with the pinned React; `extra` answers ids of the caller's own (e.g. `@stackframe/emails`). */
export function hostRequire(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return requireFrom(import.meta.url.replace("file://", ""), id, extra) as Record<string, unknown>;
}

/** CommonJS source (an email compiled by the engine) evaluated on the host with the pinned libraries and `extra`. */
export function hostEvaluate(code: string, extra: Record<string, unknown>): Record<string, unknown> {
  const module: Module = { exports: {} };
  new Function("require", "module", "exports", code)(
    (id: string) => requireFrom(import.meta.url.replace("file://", ""), id, extra),
    module,
    module.exports,
  );
  return module.exports;
}
