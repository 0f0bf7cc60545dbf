import { Worker } from "node:worker_threads";
import type { EmailEngine, EmailEngineLoader, RenderOutcome } from "./engine.ts";
import type { WorkerReply, WorkerRequest } from "./quickjs-worker.ts";

/**
 * The Node engine (engine.ts): esbuild compiles the TSX here — compiling untrusted source is safe, running it is not —
 * and the compiled email runs in QuickJS compiled to WebAssembly (quickjs-render.ts), with React 19.1.1's production
 * CommonJS builds and the react-email packages evaluated there (library-files.ts), in a worker thread
 * (quickjs-worker.ts).
 *
 * Why QuickJS in WebAssembly: node:vm is no security boundary (an email reached the host's `process` through
 * `constructor.constructor`, and with it the file system); Node 20's permission model restricts files but not the
 * network, and still shares the host's realm; isolated-vm 7 needs Node 24 and a native build. QuickJS in WebAssembly has
 * a heap of its own with no host bindings but those we expose (none: strings in, a string out), a memory limit, a stack
 * limit and an interrupt handler for a CPU deadline, and installs as plain files (no install script, no native build).
 *
 * Why a worker thread: QuickJS polls its interrupt handler between bytecode instructions, and one instruction can be a
 * built-in running for milliseconds, so a loop of them (`for (;;) "x".repeat(1e6)`) ran for a minute past the deadline.
 * Here the time limit is enforced from outside: past it (plus a grace for the interrupt to land first) the thread is
 * ended, wherever it is, and the next render starts a new one. The provider's own thread stays free while emails
 * render. One thread renders one email at a time; renders queue.
 *
 * Everything is loaded on first use: a provider that never renders an email never loads the compiler or starts the thread.
 */

/**
 * Starting the thread, loading the module and evaluating the libraries (React; for an email that uses it, Tailwind, which
 * takes seconds in QuickJS): generous, since a cold start on a busy machine is slow.
 */
const SETUP_ALLOWANCE_MILLIS = 60_000;
/** After the email's time limit, how long the sandbox's own interrupt gets to answer before the thread is ended. */
const INTERRUPT_GRACE_MILLIS = 250;

/** The worker runs from source (.ts, through quickjs-worker-entry.mjs) or from a build (.js). */
function startWorker(): Worker {
  const entry = new URL(
    import.meta.url.endsWith(".ts") ? "./quickjs-worker-entry.mjs" : "./quickjs-worker.js",
    import.meta.url,
  );
  // A known stack for the thread: QuickJS's own stack limit (RenderLimits.stackBytes) is set well inside it.
  return new Worker(entry, { resourceLimits: { stackSizeMb: 4 } });
}

class SandboxThread {
  private worker: Worker | null = null;
  /** Ends the render in flight, if any (the thread failed or exited). */
  private settle: ((outcome: RenderOutcome) => void) | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;

  run(request: Omit<WorkerRequest, "id">): Promise<RenderOutcome> {
    const result = this.queue.then(() => this.dispatch(request));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private spawn(): Worker {
    const worker = startWorker();
    // A thread that died answers the render in flight, and is replaced for the next.
    worker.on("error", (error) => this.lost(worker, error.message));
    worker.on("exit", (code) => this.lost(worker, `the sandbox thread exited with code ${code}`));
    return worker;
  }

  private lost(worker: Worker, message: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.settle?.({ kind: "crashed", message });
  }

  private retire(worker: Worker): void {
    if (this.worker === worker) this.worker = null;
    void worker.terminate();
  }

  private dispatch(request: Omit<WorkerRequest, "id">): Promise<RenderOutcome> {
    const worker = (this.worker ??= this.spawn());
    const id = this.nextId++;
    // Held only while rendering: an idle thread does not keep the process alive.
    worker.ref();
    return new Promise((resolve) => {
      // Real timers, on purpose: they bound the sandbox's CPU time, which the injected clock knows nothing about.
      let timer = setTimeout(() => stop({ kind: "limit", limit: "timeMillis" }), SETUP_ALLOWANCE_MILLIS);
      const finish = (outcome: RenderOutcome) => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        this.settle = null;
        worker.unref();
        resolve(outcome);
      };
      const stop = (outcome: RenderOutcome) => {
        finish(outcome);
        this.retire(worker);
      };
      const onMessage = (reply: WorkerReply) => {
        if (reply.id !== id) return;
        if (reply.type === "setup") {
          clearTimeout(timer);
          timer = setTimeout(() => stop({ kind: "limit", limit: "timeMillis" }), SETUP_ALLOWANCE_MILLIS);
        } else if (reply.type === "started") {
          clearTimeout(timer);
          timer = setTimeout(
            () => stop({ kind: "limit", limit: "timeMillis" }),
            request.limits.timeMillis + INTERRUPT_GRACE_MILLIS,
          );
        } else finish(reply.outcome);
      };
      this.settle = finish;
      worker.on("message", onMessage);
      worker.postMessage({ id, ...request } satisfies WorkerRequest);
    });
  }
}

/**
 * One email file through esbuild (the WebAssembly build, so nothing native is installed), as the real service compiles
 * emails: the file is served from a virtual namespace as `/<file>`, so a syntax error reads exactly as upstream's
 * ("Build failed with 1 error:\nvirtual:/theme.tsx:4:12: ERROR: …"). Every import is left to the sandbox's `require`,
 * which decides what an email may use (template-imports.ts); esbuild only turns TSX into CommonJS.
 */
async function compileWithEsbuild(
  esbuild: typeof import("esbuild-wasm"),
  source: string,
  filePath: string,
): Promise<string> {
  const path = `/${filePath}`;
  const result = await esbuild.build({
    entryPoints: [path],
    bundle: true,
    write: false,
    format: "cjs",
    platform: "neutral",
    target: "es2020",
    jsx: "automatic",
    logLevel: "silent",
    plugins: [
      {
        name: "email-source",
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) =>
            args.path === path ? { path, namespace: "virtual" } : { path: args.path, external: true },
          );
          build.onLoad({ filter: /.*/, namespace: "virtual" }, () => ({ contents: source, loader: "tsx" }));
        },
      },
    ],
  });
  return result.outputFiles[0]?.text ?? "";
}

let engine: Promise<EmailEngine> | null = null;

export const loadEmailEngine: EmailEngineLoader = () => {
  engine ??= (async () => {
    const esbuild = await import("esbuild-wasm");
    const thread = new SandboxThread();
    return {
      compile: (source, filePath) => compileWithEsbuild(esbuild, source, filePath),
      run: (input) => thread.run(input),
    };
  })();
  return engine;
};
