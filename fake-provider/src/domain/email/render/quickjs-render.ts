import type {
  DisposableFail,
  DisposableSuccess,
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { BOOTSTRAP } from "./context-sources.ts";
import type { RenderLimit, RenderLimits, RenderOutcome } from "./engine.ts";
import { TEMPLATE_IMPORTS } from "./template-imports.ts";

/**
 * One render in QuickJS compiled to WebAssembly (quickjs-engine.ts loads the module). Every render gets a fresh QuickJS
 * runtime and context: its own heap and realm, so nothing one email defines is seen by the next, and the memory limit is
 * the email's alone (a fresh runtime costs well under a millisecond; evaluating React in it is most of a render).
 * The sandbox holds the language's built-ins and what we evaluate in it — React, react-email and the email modules —
 * and nothing of the host: no host function is exposed, no module loader is set (so `import()` finds nothing), and the only values
 * that cross are strings (the compiled code and the input as JSON in, one JSON string out, parsed here).
 *
 * Platform-neutral (no Node built-ins): it needs only the module and the library sources. In Node it runs in a worker
 * thread (quickjs-worker.ts), so that the one bound QuickJS cannot enforce itself — a single built-in call running long
 * between two polls of the interrupt handler — is enforced by ending the thread (quickjs-engine.ts).
 */

/** A library the sandbox evaluates before the email: its require id and CommonJS source. */
export type LibrarySource = readonly [id: string, source: string];

/** The libraries one render gets, and the ids of those it was not given (an email reaching one is rendered again with all). */
export interface LibrarySelection {
  libraries: readonly LibrarySource[];
  leftOut: readonly string[];
}

/** What a render in this module answers: its outcome, or that the email reached a library it was not given. */
export type QuickJSRenderResult = RenderOutcome | { kind: "needs"; id: string };

/**
 * How many times a render whose components are still waiting on promises (Tailwind compiles its CSS asynchronously) is
 * retried after running the promise jobs; the real renderer streams and waits. The last pass answers what it has.
 */
const RENDER_PASSES = 4;

export interface QuickJSRenderInput {
  templateCode: string;
  themeCode: string | null;
  inputJson: string;
  limits: RenderLimits;
  /** Called when our setup (React) is done and the email's own code starts: the time limit runs from here. */
  onEmailCode?: () => void;
}

/** A failure of the sandbox machinery itself, not of the email's code: the WebAssembly module must not be used again. */
export class SandboxTrap extends Error {}

type CallResult = DisposableSuccess<QuickJSHandle> | DisposableFail<QuickJSHandle>;

/** Script, never module code (evalCode would otherwise guess from the source). */
const GLOBAL = { type: "global" } as const;

const factory = (body: string) => `(function (require, module, exports) {${body}\n})`;

/** Why QuickJS stopped the email's code, from the message of the error it raised (or a guest error that carries it). */
function limitOf(message: string): RenderLimit | null {
  if (/\bout of memory\b/.test(message)) return "memoryBytes";
  if (/\bstack overflow\b|Maximum call stack size exceeded/.test(message)) return "stackBytes";
  return null;
}

/**
 * Renders in a fresh runtime and disposes it. Throws `SandboxTrap` when a call into the module failed at the host level
 * (e.g. the host's own stack overflowed inside WebAssembly): the module's state is then unknown, so nothing in it is
 * disposed (that could abort it) and the caller drops the whole module.
 */
export function renderInQuickJS(
  module: QuickJSWASMModule,
  libraries: LibrarySelection,
  input: QuickJSRenderInput,
): QuickJSRenderResult {
  let runtime: QuickJSRuntime;
  let outcome: QuickJSRenderResult;
  try {
    runtime = module.newRuntime();
    outcome = new Render(runtime, input.limits).run(libraries, input);
  } catch (error) {
    throw new SandboxTrap(error instanceof Error ? error.message : String(error), { cause: error });
  }
  try {
    runtime.dispose();
  } catch (error) {
    throw new SandboxTrap(`disposing the sandbox failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return outcome;
}

/** A stop raised inside a render's steps, caught by `run`. */
class Stop {
  constructor(readonly outcome: QuickJSRenderResult) {}
}

class Render {
  private readonly context: QuickJSContext;
  /** Handles to dispose, in reverse, before the context: a leaked handle keeps objects alive and fails the runtime's disposal. */
  private readonly handles: QuickJSHandle[] = [];
  /**
   * When the email's code must stop: a monotonic host timer (performance.now), read by QuickJS's interrupt handler every
   * 10,000 bytecode instructions or so and inside long regular expressions. This is a bound on CPU time, like the memory
   * limit, not time the emulator's logic sees, so it does not come from the injected clock (a test's frozen clock would
   * never stop a loop). Infinite while our own setup (React) is evaluated. It stops ordinary loops within milliseconds of
   * the deadline, but not a loop of costly built-in calls (`for (;;) "x".repeat(1e6)` polls it about once a minute):
   * for those the engine ends the worker thread (quickjs-engine.ts).
   */
  private deadline = Number.POSITIVE_INFINITY;
  private interrupted = false;
  private jobsLeft: number;

  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly limits: RenderLimits,
  ) {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    runtime.setInterruptHandler(() => (this.interrupted ||= performance.now() > this.deadline));
    this.jobsLeft = limits.promiseJobs;
    this.context = runtime.newContext();
  }

  run(libraries: LibrarySelection, input: QuickJSRenderInput): QuickJSRenderResult {
    let outcome: QuickJSRenderResult;
    try {
      outcome = this.steps(libraries, input);
    } catch (error) {
      // A host-level error propagates without disposing anything: the module is abandoned (renderInQuickJS).
      if (!(error instanceof Stop)) throw error;
      outcome = error.outcome;
    }
    for (const handle of this.handles.reverse()) if (handle.alive) handle.dispose();
    this.context.dispose();
    return outcome;
  }

  private steps({ libraries, leftOut }: LibrarySelection, input: QuickJSRenderInput): QuickJSRenderResult {
    const ctx = this.context;
    const factories = this.own(ctx.newObject());
    for (const [id, source] of libraries)
      ctx.setProp(factories, id, this.value(ctx.evalCode(factory(source), `${id}.js`, GLOBAL)));
    const allowed = this.value(ctx.evalCode(JSON.stringify(TEMPLATE_IMPORTS), "allowed.js", GLOBAL));
    const missing = this.value(ctx.evalCode(JSON.stringify(leftOut), "left-out.js", GLOBAL));
    const api = this.value(
      ctx.callFunction(
        this.value(ctx.evalCode(BOOTSTRAP, "email-bootstrap.js", GLOBAL)),
        ctx.undefined,
        factories,
        allowed,
        missing,
      ),
    );
    const step = (name: string, maxChars: number, ...args: QuickJSHandle[]) =>
      this.answer(ctx.callFunction(this.own(ctx.getProp(api, name)), ctx.undefined, ...args), maxChars);

    // Our setup: every library given is evaluated before the email's time starts (Tailwind's take seconds here).
    const preloaded = step("preload", 64 * 1024);
    if (typeof preloaded.error === "string") return { kind: "crashed", message: preloaded.error };
    this.drainJobs();

    input.onEmailCode?.();
    this.deadline = performance.now() + this.limits.timeMillis;
    const template = this.own(ctx.newString(input.templateCode));
    const theme = input.themeCode === null ? ctx.null : this.own(ctx.newString(input.themeCode));
    const loaded = step("load", 64 * 1024, template, theme);
    if (typeof loaded.needs === "string") return { kind: "needs", id: loaded.needs };
    if (typeof loaded.error === "string") return this.failed(loaded.error);
    this.drainJobs();

    const inputValue = JSON.parse(input.inputJson) as Record<string, unknown>;
    for (let pass = 1; ; pass++) {
      const inputJson = JSON.stringify({ ...inputValue, lastPass: pass === RENDER_PASSES });
      const rendered = step("render", 2 * this.limits.htmlChars + 64 * 1024, this.own(ctx.newString(inputJson)));
      if (typeof rendered.needs === "string") return { kind: "needs", id: rendered.needs };
      if (typeof rendered.error === "string") return this.failed(rendered.error);
      const waiting = this.runtime.hasPendingJob();
      this.drainJobs();
      if (rendered.suspended === true && waiting) continue;
      if (rendered.suspended === true)
        return this.failed("The email failed to render: a component waited on a promise that never settled.");
      if (typeof rendered.html !== "string") return this.failed("The email rendered no HTML.");
      if (rendered.html.length > this.limits.htmlChars) return { kind: "limit", limit: "htmlChars" };
      return {
        kind: "rendered",
        html: rendered.html,
        ...(typeof rendered.subject === "string" ? { subject: rendered.subject } : {}),
        ...(typeof rendered.notificationCategory === "string"
          ? { notificationCategory: rendered.notificationCategory }
          : {}),
      };
    }
  }

  private own(handle: QuickJSHandle): QuickJSHandle {
    this.handles.push(handle);
    return handle;
  }

  /** A call's value, owned; or a Stop with why the call failed (a bound, else the error's message). */
  private value(result: CallResult): QuickJSHandle {
    if (!result.error) return this.own(result.value);
    throw new Stop(this.stopped(this.own(result.error)));
  }

  /** Why the email's code stopped with this error value: a bound, else its message. */
  private stopped(error: QuickJSHandle | string): RenderOutcome {
    if (this.interrupted) return { kind: "limit", limit: "timeMillis" };
    const message = typeof error === "string" ? error : this.messageOf(error);
    const limit = limitOf(message);
    return limit !== null ? { kind: "limit", limit } : { kind: "failed", message };
  }

  /** A guest error the bootstrap caught and worded may still be a bound (e.g. the template's code ran out of memory). */
  private failed(message: string): RenderOutcome {
    return this.stopped(message);
  }

  /** A step's JSON answer, read only if it is a string of at most `maxChars` (checked before it is copied out). */
  private answer(result: CallResult, maxChars: number): Record<string, unknown> {
    const handle = this.value(result);
    const ctx = this.context;
    if (ctx.typeof(handle) !== "string")
      throw new Stop({ kind: "failed", message: "The email's sandbox answered something other than a string." });
    const length = this.own(ctx.getProp(handle, "length"));
    if (ctx.typeof(length) !== "number" || ctx.getNumber(length) > maxChars)
      throw new Stop({ kind: "limit", limit: "htmlChars" });
    try {
      const parsed: unknown = JSON.parse(ctx.getString(handle));
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      // An email that replaced JSON.stringify for its own render gets this message.
    }
    throw new Stop({ kind: "failed", message: "The email's sandbox answered something other than its result." });
  }

  /** Runs the promise jobs the last step queued, within the job budget and the deadline. */
  private drainJobs(): void {
    while (this.runtime.hasPendingJob()) {
      if (this.jobsLeft <= 0) throw new Stop({ kind: "limit", limit: "promiseJobs" });
      const result = this.runtime.executePendingJobs(Math.min(this.jobsLeft, 1_000));
      if (result.error) throw new Stop(this.stopped(this.own(result.error)));
      this.jobsLeft -= Math.max(1, result.value);
    }
  }

  /** The message of an error value, read without running the email's code (a getter would run it; the deadline bounds that). */
  private messageOf(error: QuickJSHandle): string {
    const ctx = this.context;
    if (ctx.typeof(error) === "string") return ctx.getString(error);
    if (ctx.typeof(error) !== "object") return `${ctx.typeof(error)} thrown`;
    const message = this.own(ctx.getProp(error, "message"));
    return ctx.typeof(message) === "string" ? ctx.getString(message) : "an error without a message";
  }
}
