import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/**
 * The import check of `npm run lint` (docs/ARCHITECTURE.md, "Import rules"): no import cycles among the packages'
 * source files (tests aside), and the layer rules below. `import type` counts: a type-only cycle still ties two
 * modules' designs together. Imports resolve as the typecheck resolves them (tsconfig.base.json, workspace packages
 * to their sources), so `@authsim/sdk/contract` from the fake provider is an arrow into sdk/src/contract.
 */

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const roots = [
  "sdk/src",
  "fake-provider/src",
  "fake-provider/testing",
  "react/src",
  "conformance/src",
  "fixtures/src",
  "authsim/src",
  "authsim/testing",
];

interface LayerRule {
  /** Shown when a file breaks it. */
  readonly name: string;
  /** Files the rule applies to, relative to the repo root. */
  readonly from: RegExp;
  /** What those files may not import. */
  readonly forbidden: RegExp;
}

export const layerRules: readonly LayerRule[] = [
  {
    name: "the contract describes the wire; it does not know the apps built on it",
    from: /^sdk\/src\/contract\//,
    forbidden: /^sdk\/src\/(client|server|admin)\//,
  },
  {
    name: "the control-plane contract is schemas and a fetch client: no SDK apps, so a browser bundle and the fake provider both import it",
    from: /^sdk\/src\/emulator\//,
    forbidden: /^sdk\/src\/(client|server|admin|session|transport|cache)\//,
  },
  {
    name: "the client app does not reach up into the server or admin apps",
    from: /^sdk\/src\/client\//,
    forbidden: /^sdk\/src\/(server|admin)\//,
  },
  {
    name: "the server app does not reach up into the admin app",
    from: /^sdk\/src\/server\//,
    forbidden: /^sdk\/src\/admin\//,
  },
  {
    name: "the fake provider speaks the wire: of the SDK it uses the contract, its control plane's contract, the runtime helpers and the URL rules only",
    from: /^fake-provider\/src\//,
    forbidden: /^sdk\/src\/(?!contract\/|emulator\/|runtime\/|urls\/)/,
  },
  // fake-provider/src in three layers below its assembly (docs/ARCHITECTURE.md, "The fake provider's layers"):
  // api/ (HTTP adapter) and emulator/ (what only an emulator has) both build on domain/ (operations and state);
  // the top-level files (app.ts, provider.ts, seed.ts, clock.ts, index.ts, dev-server.ts) assemble them.
  {
    name: "the domain knows no HTTP adapter, no emulator machinery and no assembly",
    from: /^fake-provider\/src\/domain\//,
    forbidden: /^fake-provider\/src\/(api\/|emulator\/|test-support\/|[^/]+\.tsx?$)/,
  },
  {
    name: "the errors the domain throws stand alone: they import nothing else of the fake provider",
    from: /^fake-provider\/src\/domain\/errors\//,
    forbidden: /^fake-provider\/src\/(?!domain\/errors\/)/,
  },
  {
    name: "the store holds tables and transactions: it knows no operations, views, credentials or email",
    from: /^fake-provider\/src\/domain\/store\//,
    forbidden: /^fake-provider\/src\/domain\/(ops|views|auth|email|webauthn)\//,
  },
  {
    name: "credentials and tokens are below the operations that use them",
    from: /^fake-provider\/src\/domain\/auth\//,
    forbidden: /^fake-provider\/src\/domain\/(ops|views|email)\//,
  },
  {
    name: "the HTTP adapter does not reach into the control plane, the emulator's state or the provider assembly",
    from: /^fake-provider\/src\/api\/(http|auth|routes)\//,
    // routes/mount.ts marks how far a request got in the request log's trace (emulator/request-log/trace.ts).
    forbidden:
      /^fake-provider\/src\/(emulator\/(?!request-log\/trace\.ts$)|test-support\/|app\.ts$|provider\.ts$|seed\.ts$|index\.ts$|dev-server\.ts$)/,
  },
  {
    name: "HTTP parsing and request authentication are below the routes",
    from: /^fake-provider\/src\/api\/(http|auth)\//,
    forbidden: /^fake-provider\/src\/(api\/(routes|msw)\/|clock\.ts$)/,
  },
  {
    name: "no part of the HTTP adapter reaches the control plane",
    from: /^fake-provider\/src\/api\//,
    forbidden: /^fake-provider\/src\/emulator\/control\//,
  },
  {
    name: "the emulator's parts name the provider through provider.ts, never app.ts or the package's entry points",
    from: /^fake-provider\/src\/emulator\//,
    forbidden: /^fake-provider\/src\/(app\.ts$|index\.ts$|dev-server\.ts$|seed\.ts$|test-support\/|api\/msw\/)/,
  },
  {
    name: "the emulator's parts below the control plane do not reach up into it",
    from: /^fake-provider\/src\/emulator\/(?!control\/)/,
    forbidden: /^fake-provider\/src\/emulator\/control\//,
  },
];

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "dist") walk(full);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        files.push(fs.realpathSync(full));
      }
    }
  };
  for (const root of roots) if (fs.existsSync(path.join(repo, root))) walk(path.join(repo, root));
  return files.sort();
}

function compilerOptions(): ts.CompilerOptions {
  const configPath = path.join(repo, "tsconfig.base.json");
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, "\n"));
  return ts.convertCompilerOptionsFromJson(config.compilerOptions, repo).options;
}

/** Each file's imports among `files` (static, type-only, re-exports and dynamic imports alike). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const targets = new Set<string>();
    for (const imported of info.importedFiles) {
      const resolved = ts.resolveModuleName(imported.fileName, file, options, host).resolvedModule;
      if (!resolved) continue;
      const target = fs.realpathSync(resolved.resolvedFileName);
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), or a file importing itself. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** One shortest loop through the component's first file, to name the cycle as a path. */
export function loopThrough(component: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string[] {
  const inside = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const loop = [start];
        for (let at: string | undefined = v; at !== undefined && at !== start; at = previous.get(at))
          loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

function main(): number {
  const files = sourceFiles();
  const graph = importGraph(files);
  const rel = (f: string) => path.relative(repo, f);
  const problems: string[] = [];
  for (const component of cycles(graph)) {
    const loop = loopThrough(component, graph).map(rel).join(" → ");
    const others = component.length > 2 ? `\n    (the cycle's files: ${component.map(rel).join(", ")})` : "";
    problems.push(`import cycle: ${loop}${others}`);
  }
  for (const [file, targets] of graph) {
    const from = rel(file);
    for (const rule of layerRules) {
      if (!rule.from.test(from)) continue;
      for (const target of targets) {
        if (!rule.forbidden.test(rel(target))) continue;
        problems.push(`${from} imports ${rel(target)}: breaks the layer rule "${rule.name}"`);
      }
    }
  }
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(
      `\ncheck-imports: ${problems.length} problem(s) in ${files.length} source files (docs/ARCHITECTURE.md, "Import rules").`,
    );
    return 1;
  }
  console.log(`check-imports: ${files.length} source files, no import cycles and layer rules kept.`);
  return 0;
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
