/**
 * What rendering an email needs from the runtime (sandbox.ts): a TSX compiler, and a sandbox in which the compiled
 * email runs, fresh per render and bounded in time, memory, stack, promise jobs and output. In Node that is esbuild and
 * QuickJS compiled to WebAssembly, in a worker thread (quickjs-engine.ts, quickjs-worker.ts, quickjs-render.ts);
 * elsewhere (a browser page running the emulator) there is none (no-engine.ts). package.json's `#email-engine` import picks one by the "node" condition, so
 * the emulator's core bundles for a browser without Node built-ins.
 */
export interface EmailEngine {
  /**
   * TSX → CommonJS (imports of modules become `require` calls, left to the sandbox); throws with the compiler's message
   * (file, line and column) on a syntax error.
   */
  compile(source: string, filePath: string): Promise<string>;
  /**
   * Loads the compiled template (and theme) and renders them with `inputJson` (context-sources.ts) in a fresh sandbox.
   * Never rejects for anything the email's code does: every failure is an outcome.
   */
  run(input: {
    templateCode: string;
    themeCode: string | null;
    inputJson: string;
    limits: RenderLimits;
  }): Promise<RenderOutcome>;
}

/** The bounds on one render; every one of them stops the email with EMAIL_RENDERING_ERROR, never the provider. */
export interface RenderLimits {
  /** CPU time of the email's own code (loading its modules, rendering, its promise jobs). */
  timeMillis: number;
  /** The sandbox's heap, React included. */
  memoryBytes: number;
  /** The sandbox's stack: deep recursion fails inside the sandbox instead of overflowing the host's stack. */
  stackBytes: number;
  /** Promise jobs (microtasks) run after loading and after rendering, in all. */
  promiseJobs: number;
  /** The rendered HTML's length, in UTF-16 code units. */
  htmlChars: number;
}

export type RenderLimit = keyof RenderLimits;

export type RenderOutcome =
  | { kind: "rendered"; html: string; subject?: string; notificationCategory?: string }
  /** The email's own failure (it threw, exported no component, imported a module it may not), worded for its author. */
  | { kind: "failed"; message: string }
  /** Stopped by a bound. */
  | { kind: "limit"; limit: RenderLimit }
  /** The sandbox itself failed (a trap in the WebAssembly module, its thread died); it is replaced for the next render. */
  | { kind: "crashed"; message: string };

/** Loads the engine (the compiler, the sandbox and React's sources are loaded on first use), or rejects with why there is none. */
export type EmailEngineLoader = () => Promise<EmailEngine>;
