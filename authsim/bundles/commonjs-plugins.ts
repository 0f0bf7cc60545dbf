import { RolldownMagicString, type Plugin } from "rolldown";
import { parseAst } from "rolldown/parseAst";
import { DYNAMIC_IMPORT } from "../src/bundle-loader.ts";

/**
 * Build time only: what makes the CLI's ES modules a CommonJS bundle that src/bundle-loader.ts can run through
 * `vm.Script` (and so keep V8's compiled code between starts).
 */

type Node = { type?: unknown; start?: unknown };

/** Every node of an ESTree (oxc's) with the given type, in no particular order. */
function nodesOfType(root: unknown, type: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...(value as unknown[]));
    else if (value !== null && typeof value === "object") {
      if ((value as Node).type === type) found.push(value as { start: number; end: number });
      for (const child of Object.values(value)) if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  return found;
}

/**
 * The entry's top-level code (after its imports) in an async function called at once: CommonJS has no top-level
 * await, and the CLI awaits its seed, config file and pages before it listens. An error it throws still ends the
 * process (an unhandled rejection), as a module's would. The entry must export nothing.
 */
export function topLevelAwaitIn(entry: string): Plugin {
  return {
    name: "authsim-top-level-await",
    transform(code, id) {
      if (id !== entry) return null;
      const program = parseAst(code);
      if (program.body.some((s) => s.type.startsWith("Export")))
        throw new Error(`${entry}: an entry run in an async function cannot export`);
      const imports = program.body.filter((s) => s.type === "ImportDeclaration");
      const after = Math.max(0, ...imports.map((s) => s.end));
      const wrapped = new RolldownMagicString(code);
      wrapped.appendLeft(after, "\n(async () => {");
      wrapped.append("\n})();\n");
      return { code: wrapped };
    },
  };
}

/**
 * In each output chunk, `import(` becomes `__imp_(` (bundle-loader.ts's DYNAMIC_IMPORT, a parameter of the function it
 * runs the chunk in): a script run by `vm.Script` cannot import without a flag. The name is as long as `import`, so
 * the chunk's source map stays right. What is left to import dynamically is what the bundle leaves outside: the
 * chunks' own lazy imports are `require()`s by then.
 */
export function dynamicImportsThroughLoader(): Plugin {
  return {
    name: "authsim-dynamic-imports-through-loader",
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        if (new RegExp(`\\b${DYNAMIC_IMPORT}\\b`).test(chunk.code))
          throw new Error(`${chunk.fileName} already names ${DYNAMIC_IMPORT}`);
        let code = chunk.code;
        for (const { start } of nodesOfType(parseAst(code), "ImportExpression")) {
          if (code.slice(start, start + 6) !== "import") throw new Error(`${chunk.fileName}: no import( at ${start}`);
          code = code.slice(0, start) + DYNAMIC_IMPORT + code.slice(start + 6);
        }
        chunk.code = code;
      }
    },
  };
}
