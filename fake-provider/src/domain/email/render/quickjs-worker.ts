import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { parentPort, type MessagePort } from "node:worker_threads";
import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";
import { ARKTYPE_MODULE, REACT_EMAIL_MODULE, STACK_EMAILS_MODULE } from "./context-sources.ts";
import type { RenderLimits, RenderOutcome } from "./engine.ts";
import { renderInQuickJS, SandboxTrap, type LibrarySource } from "./quickjs-render.ts";

/**
 * The worker thread that renders emails in QuickJS (quickjs-engine.ts starts it; quickjs-render.ts renders), one
 * request at a time. It compiles the WebAssembly and reads React's sources once, and says when an email's own code
 * starts, so that the engine can time it.
 */

export interface WorkerRequest {
  id: number;
  templateCode: string;
  themeCode: string | null;
  inputJson: string;
  limits: RenderLimits;
}

export type WorkerReply = { id: number; type: "started" } | { id: number; type: "done"; outcome: RenderOutcome };

const resolve = createRequire(import.meta.url);

function readLibraries(): LibrarySource[] {
  const react = dirname(resolve.resolve("react/package.json"));
  const reactDom = dirname(resolve.resolve("react-dom/package.json"));
  // The production CommonJS builds: they read no `process.env` and need nothing but each other.
  const files: [string, string][] = [
    ["react", join(react, "cjs/react.production.js")],
    ["react/jsx-runtime", join(react, "cjs/react-jsx-runtime.production.js")],
    ["react-dom", join(reactDom, "cjs/react-dom.production.js")],
    ["react-dom/server", join(reactDom, "cjs/react-dom-server-legacy.browser.production.js")],
  ];
  const libraries: LibrarySource[] = files.map(([id, file]) => [id, readFileSync(file, "utf8")]);
  libraries.push(
    ["@react-email/components", REACT_EMAIL_MODULE],
    ["@stackframe/emails", STACK_EMAILS_MODULE],
    ["arktype", ARKTYPE_MODULE],
  );
  return libraries;
}

/**
 * A QuickJS module whose whole WebAssembly memory is `memoryBytes`, fixed. That is the memory bound that holds: in this
 * build QuickJS cannot measure its blocks (it counts each as 8 bytes), so the runtime's own limit stops one allocation
 * larger than the limit but not many smaller ones, nor ArrayBuffers. With the memory fixed, running out is an ordinary
 * QuickJS "out of memory" error; and the host never gives the sandbox more than this.
 */
async function newSandboxModule(compiled: WebAssembly.Module, memoryBytes: number): Promise<QuickJSWASMModule> {
  const pages = Math.ceil(memoryBytes / 65_536);
  const wasmMemory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  return newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule: compiled, wasmMemory }));
}

if (parentPort === null) throw new Error("quickjs-worker.ts runs as a worker thread (quickjs-engine.ts)");
const port: MessagePort = parentPort;
const libraries = readLibraries();
const compiled = await WebAssembly.compile(readFileSync(resolve.resolve("@jitl/quickjs-wasmfile-release-sync/wasm")));
let sandbox: { module: QuickJSWASMModule; memoryBytes: number } | null = null;

async function handle(request: WorkerRequest): Promise<WorkerReply> {
  const { memoryBytes } = request.limits;
  if (sandbox?.memoryBytes !== memoryBytes)
    sandbox = { module: await newSandboxModule(compiled, memoryBytes), memoryBytes };
  let outcome: RenderOutcome;
  try {
    outcome = renderInQuickJS(sandbox.module, libraries, {
      ...request,
      onEmailCode: () => port.postMessage({ id: request.id, type: "started" }),
    });
  } catch (error) {
    if (!(error instanceof SandboxTrap)) throw error;
    // Recursion through built-ins can use more of the thread's stack per sandbox frame than the stack limit counts.
    const hostStack = error.cause instanceof RangeError && /call stack/i.test(error.cause.message);
    outcome = hostStack ? { kind: "limit", limit: "stackBytes" } : { kind: "crashed", message: error.message };
  }
  // After a trap the module's memory may be inconsistent, and after running out of it, fragmented: the next render
  // gets a new module (a few milliseconds; the compiled WebAssembly is reused).
  if (
    outcome.kind === "crashed" ||
    (outcome.kind === "limit" && (outcome.limit === "stackBytes" || outcome.limit === "memoryBytes"))
  )
    sandbox = null;
  return { id: request.id, type: "done", outcome };
}

// One render at a time, in the order asked.
let queue: Promise<unknown> = Promise.resolve();
port.on("message", (request: WorkerRequest) => {
  queue = queue
    .then(() => handle(request))
    .then(
      (reply) => port.postMessage(reply),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          type: "done",
          outcome: { kind: "crashed", message: error instanceof Error ? error.message : String(error) },
        } satisfies WorkerReply),
    );
});
