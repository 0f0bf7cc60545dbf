import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parentPort, type MessagePort } from "node:worker_threads";
import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";
import type { RenderLimits, RenderOutcome } from "./engine.ts";
import { readLibraries } from "./library-files.ts";
import { renderInQuickJS, SandboxTrap, type QuickJSRenderResult } from "./quickjs-render.ts";

/**
 * The worker thread that renders emails in QuickJS (quickjs-engine.ts starts it; quickjs-render.ts renders), one
 * request at a time. It compiles the WebAssembly and reads the libraries' sources once (library-files.ts), and says
 * when an email's own code starts, so that the engine can time it.
 */

export interface WorkerRequest {
  id: number;
  templateCode: string;
  themeCode: string | null;
  inputJson: string;
  limits: RenderLimits;
}

/** "setup": our own setup (loading the libraries) starts again, for a second render; "started": the email's code starts. */
export type WorkerReply =
  | { id: number; type: "setup" }
  | { id: number; type: "started" }
  | { id: number; type: "done"; outcome: RenderOutcome };

const resolve = createRequire(import.meta.url);

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
    const render = (selection = libraries.select([request.templateCode, request.themeCode ?? ""])) =>
      renderInQuickJS(sandbox!.module, selection, {
        ...request,
        onEmailCode: () => port.postMessage({ id: request.id, type: "started" }),
      });
    let result: QuickJSRenderResult = render();
    // An email that reached a heavy library without naming it renders again with all of them, from a fresh sandbox.
    if (result.kind === "needs") {
      port.postMessage({ id: request.id, type: "setup" } satisfies WorkerReply);
      result = render(libraries.all);
    }
    outcome =
      result.kind === "needs" ? { kind: "failed", message: `The module "${result.id}" is not available.` } : result;
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
