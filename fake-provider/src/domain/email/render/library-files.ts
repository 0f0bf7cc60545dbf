import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  ARKTYPE_MODULE,
  REACT_EMAIL_RENDER_MODULE,
  reactEmailIndexSource,
  STACK_EMAILS_MODULE,
} from "./context-sources.ts";
import type { LibrarySelection, LibrarySource } from "./quickjs-render.ts";

/**
 * The libraries an email's sandbox holds, read once from node_modules by the worker thread (quickjs-worker.ts): React
 * and ReactDOM 19.1.1 and the real `@react-email/*` component packages, the versions the real service bundles with
 * emails (`@react-email/components` 1.0.6 and what it depends on, as fake-provider's package.json pins them).
 *
 * Three of those packages are heavy, and QuickJS evaluates them slowly (figures in docs/emulator.md): Tailwind (its
 * bundle, css-tree's data and the tailwindcss compiler, and CodeBlock, which it compares components against), CodeBlock
 * (Prism and its languages) and Markdown (marked). A render gets one of them only when its compiled code names one of
 * its exports (`Tailwind`, `CodeBlock`, `dracula`, `Markdown` …); an email that reaches one without naming it (a computed
 * property name) is rendered again with all of them (quickjs-worker.ts).
 */

const resolve = createRequire(import.meta.url);

/** The component packages in the order the real `@react-email/components` index re-exports them. */
export const COMPONENT_PACKAGES = [
  "body",
  "button",
  "code-block",
  "code-inline",
  "column",
  "container",
  "font",
  "head",
  "heading",
  "hr",
  "html",
  "img",
  "link",
  "markdown",
  "preview",
  "render",
  "row",
  "section",
  "tailwind",
  "text",
].map((name) => `@react-email/${name}`);

/** The heavy libraries by group; a group's members are loaded together, with the groups it requires. */
const HEAVY_GROUPS: Record<string, { ids: readonly string[]; requires: readonly string[] }> = {
  "code-block": { ids: ["prismjs", "@react-email/code-block"], requires: [] },
  markdown: { ids: ["marked", "@react-email/markdown"], requires: [] },
  tailwind: { ids: ["tailwindcss", "@react-email/tailwind"], requires: ["code-block"] },
};

/** The names a CommonJS build assigns to `exports.<name> =`, as the react-email packages' builds all export. */
export function exportNames(source: string): string[] {
  return [...source.matchAll(/^exports\.([A-Za-z_$][\w$]*) =/gm)].map((match) => match[1]!);
}

/**
 * React's legacy server renderer (the one whose markup equals react-email's render(), doctype aside) swallows what a
 * component throws inside a Suspense boundary, rendering the boundary for the client instead; react-email's streaming
 * render fails with it. Its error callback is a no-op of the module's own: here it reports to
 * `require("react-dom/server").onRenderError`, so the bootstrap (context-sources.ts) fails the render as the real one
 * does. A React version without that callback fails here, when the worker starts, not in a render.
 */
const SWALLOWED_ERRORS = "function onError() {}";
function withErrorHook(source: string): string {
  if (source.split(SWALLOWED_ERRORS).length !== 2)
    throw new Error("react-dom/server's legacy renderer no longer has the error callback the email sandbox hooks");
  return source.replace(
    SWALLOWED_ERRORS,
    'function onError(error) { if (typeof exports.onRenderError === "function") exports.onRenderError(error); }',
  );
}

function readPackage(id: string): string {
  return readFileSync(resolve.resolve(id), "utf8");
}

export interface Libraries {
  /** The libraries a render of this compiled template and theme needs. */
  select(codes: readonly string[]): LibrarySelection;
  /** Every library. */
  all: LibrarySelection;
}

export function readLibraries(): Libraries {
  const react = dirname(resolve.resolve("react/package.json"));
  const reactDom = dirname(resolve.resolve("react-dom/package.json"));
  // The production CommonJS builds: they read no `process.env` and need nothing but each other.
  const sources = new Map<string, string>([
    ["react", readFileSync(join(react, "cjs/react.production.js"), "utf8")],
    ["react/jsx-runtime", readFileSync(join(react, "cjs/react-jsx-runtime.production.js"), "utf8")],
    ["react-dom", readFileSync(join(reactDom, "cjs/react-dom.production.js"), "utf8")],
    [
      "react-dom/server",
      withErrorHook(readFileSync(join(reactDom, "cjs/react-dom-server-legacy.browser.production.js"), "utf8")),
    ],
  ]);
  const index: [string, string[]][] = [];
  for (const id of COMPONENT_PACKAGES) {
    // render() is ours (context-sources.ts): the real one needs Prettier, html-to-text and a streaming renderer.
    const source = id === "@react-email/render" ? REACT_EMAIL_RENDER_MODULE : readPackage(id);
    sources.set(id, source);
    index.push([id, id === "@react-email/render" ? ["render"] : exportNames(source)]);
  }
  for (const group of Object.values(HEAVY_GROUPS))
    for (const id of group.ids) if (!sources.has(id)) sources.set(id, readPackage(id));
  sources.set("@react-email/components", reactEmailIndexSource(index));
  sources.set("@stackframe/emails", STACK_EMAILS_MODULE);
  sources.set("arktype", ARKTYPE_MODULE);

  const heavyIds = new Set(Object.values(HEAVY_GROUPS).flatMap((group) => group.ids));
  const namesOf = (group: string) =>
    HEAVY_GROUPS[group]!.ids.filter((id) => id.startsWith("@react-email/")).flatMap((id) =>
      exportNames(sources.get(id)!),
    );
  const patterns = Object.keys(HEAVY_GROUPS).map(
    (group) => [group, new RegExp(`\\.(?:${namesOf(group).join("|")})\\b`)] as const,
  );
  const selection = (groups: ReadonlySet<string>): LibrarySelection => {
    const wanted = new Set<string>();
    const add = (group: string) => {
      for (const required of HEAVY_GROUPS[group]!.requires) add(required);
      for (const id of HEAVY_GROUPS[group]!.ids) wanted.add(id);
    };
    for (const group of groups) add(group);
    const libraries: LibrarySource[] = [];
    const leftOut: string[] = [];
    for (const [id, source] of sources)
      if (!heavyIds.has(id) || wanted.has(id)) libraries.push([id, source]);
      else leftOut.push(id);
    return { libraries, leftOut };
  };
  const cached = new Map<string, LibrarySelection>();
  return {
    select(codes) {
      const groups = new Set(
        patterns.filter(([, pattern]) => codes.some((code) => pattern.test(code))).map(([g]) => g),
      );
      const key = [...groups].sort().join(",");
      let found = cached.get(key);
      if (!found) cached.set(key, (found = selection(groups)));
      return found;
    },
    all: selection(new Set(Object.keys(HEAVY_GROUPS))),
  };
}
