import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KnownErrorException } from "../../errors/known-error.ts";
import { RENDER_LIMITS, renderEmailSources } from "./sandbox.ts";

/**
 * The email sandbox as attack surface (design rule 12): known ways out of a JavaScript sandbox, and ways to exhaust the
 * host, each tried by an email's TSX. None may reach the provider's process — no file written, no host object seen —
 * and every bound answers EMAIL_RENDERING_ERROR promptly, after which the next email renders normally.
 */

const project = { displayName: "Acme" };
// A second for an email's code, not the default five (stated below): the loops here run to the limit.
const TIME_LIMIT_MILLIS = 1_000;
const render = (templateSource: string) =>
  renderEmailSources({ templateSource, themeSource: null, project, timeLimitMillis: TIME_LIMIT_MILLIS });
const scratch = mkdtempSync(join(tmpdir(), "authsim-email-escape-"));
const marker = join(scratch, "pwned");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What an email's render gave: its text, or the EMAIL_RENDERING_ERROR message (anything else fails the test). */
async function attempt(templateSource: string): Promise<{ text: string } | { error: string }> {
  try {
    return { text: (await render(templateSource)).text };
  } catch (error) {
    expect(error).toBeInstanceOf(KnownErrorException);
    expect((error as KnownErrorException).code).toBe("EMAIL_RENDERING_ERROR");
    return { error: String((error as KnownErrorException).details?.error) };
  }
}

/** Writes the marker file with the host's fs, given an expression that should yield the host's `process`. */
const pwn = (processExpression: string) =>
  `const p = ${processExpression}; p.getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker)}, "pwn");`;

const escapes: { name: string; source: string; expected: RegExp }[] = [
  {
    name: "globalThis.constructor.constructor (the node:vm escape)",
    source: `export function EmailTemplate() { ${pwn('globalThis.constructor.constructor("return process")()')} return <p />; }`,
    expected: /'process' is not defined/,
  },
  {
    name: "({}).constructor.constructor",
    source: `${pwn('({}).constructor.constructor("return process")()')} export function EmailTemplate() { return <p />; }`,
    expected: /'process' is not defined/,
  },
  {
    name: "this.constructor.constructor in a sloppy function",
    source: `const self = Function("return this")(); ${pwn('self.constructor.constructor("return process")()')} export function EmailTemplate() { return <p />; }`,
    expected: /'process' is not defined/,
  },
  {
    name: "a component's constructor chain",
    source: `export function EmailTemplate() { ${pwn('EmailTemplate.constructor("return process")()')} return <p />; }`,
    expected: /'process' is not defined/,
  },
  {
    name: "eval",
    source: `${pwn('eval("process")')} export function EmailTemplate() { return <p />; }`,
    expected: /'process' is not defined/,
  },
  {
    name: "the email's require",
    source: `${pwn('require("process")')} export function EmailTemplate() { return <p />; }`,
    expected: /Cannot import "process"/,
  },
  {
    name: "require of node:fs",
    source: `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "pwn"); export function EmailTemplate() { return <p />; }`,
    expected: /Cannot import "node:fs"/,
  },
  {
    name: "require's own Function",
    source: `${pwn('require.constructor("return process")()')} export function EmailTemplate() { return <p />; }`,
    expected: /'process' is not defined/,
  },
  {
    name: "a V8 stack-trace hook (Error.prepareStackTrace) for host frames",
    source: `Error.prepareStackTrace = (_e, frames) => frames.map((f) => f.getThis()); ${pwn("new Error().stack.find((t) => t && t.process).process")} export function EmailTemplate() { return <p />; }`,
    expected: /not a function|undefined|cannot read/i,
  },
  {
    name: "prototype tricks: Object.prototype.__proto__, __defineGetter__ and __lookupGetter__",
    source: `const root = Object.prototype.__proto__; ({}).__defineGetter__("x", function () { return this; });
      const getter = Object.prototype.__lookupGetter__("__proto__");
      ${pwn("root.process || getter.call(globalThis).process")} export function EmailTemplate() { return <p />; }`,
    expected: /cannot read property|undefined|null/i,
  },
];

const probes: { name: string; source: string; expected: string }[] = [
  {
    name: "process, require, module and host globals are absent, however the global object is reached",
    source: `const g1 = globalThis, g2 = Function("return this")(), g3 = (0, eval)("this"), g4 = ({}).constructor.constructor("return this")();
      export function EmailTemplate() {
        const seen = [g1, g2, g3, g4].map((g) => ["process", "require", "module", "Buffer", "fetch", "WebAssembly", "setTimeout", "globalThis_host"].map((k) => typeof g[k]).join(","));
        return <p>{seen.join("|") + "|" + (g1 === g2 && g2 === g3 && g3 === g4)}</p>;
      }`,
    expected: `${Array(4).fill(Array(8).fill("undefined").join(",")).join("|")}|true`,
  },
  {
    name: "import() of fs is refused (the email's promise jobs run before it renders)",
    source: `let seen = "pending";
      import("fs").then((fs) => { seen = "loaded " + typeof fs.writeFileSync; }, (e) => { seen = "refused: " + e.message; });
      export function EmailTemplate() { return <p>{seen}</p>; }`,
    // The compiler leaves a dynamic import as it is, and the sandbox has no module loader to answer it.
    expected: "refused: could not load module 'fs'",
  },
  {
    name: "import() of node:fs through eval finds no module loader",
    source: `let seen = "pending";
      eval('import("node:fs")').then((fs) => { seen = "loaded " + typeof fs.writeFileSync; }, (e) => { seen = "refused"; });
      export function EmailTemplate() { return <p>{seen}</p>; }`,
    expected: "refused",
  },
  {
    name: "the global object holds only the language's built-ins and the render's own names",
    source: `export function EmailTemplate() { return <p>{Object.getOwnPropertyNames(globalThis).filter((k) => !/^[A-Z]/.test(k)).sort().join(",")}</p>; }`,
    expected:
      "console,decodeURI,decodeURIComponent,encodeURI,encodeURIComponent,escape,eval,globalThis,isFinite,isNaN,parseFloat,parseInt,performance,structuredClone,undefined,unescape",
  },
];

const normal = "export function EmailTemplate() { return <p>still fine</p>; }";

describe("escapes do not reach the host", () => {
  it.each(escapes)(
    "$name",
    async ({ source, expected }) => {
      const result = await attempt(source);
      expect(existsSync(marker)).toBe(false);
      expect(result).toEqual({ error: expect.stringMatching(expected) });
      expect(await attempt(normal)).toEqual({ text: "still fine" });
      // Some run until the render time limit stops them.
    },
    30_000,
  );

  it.each(probes)("$name", async ({ source, expected }) => {
    expect(await attempt(source)).toEqual({ text: expected });
    expect(existsSync(marker)).toBe(false);
  });

  it("what an email changes in its realm (prototypes, globals) is gone for the next, and never touched the host's", async () => {
    const polluter = `Object.prototype.polluted = "yes"; Array.prototype.map = function () { return ["hijacked"]; };
      globalThis.leaked = 1; export function EmailTemplate() { return <p>{[1].map(String).join() + ({}).polluted}</p>; }`;
    expect(await attempt(polluter)).toEqual({ text: "hijackedyes" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const reader =
      "export function EmailTemplate() { return <p>{[1].map(String).join() + typeof ({}).polluted + typeof globalThis.leaked}</p>; }";
    expect(await attempt(reader)).toEqual({ text: "1undefinedundefined" });
  });
});

const MiB = 1024 * 1024;
const exhaustion: { name: string; source: string; expected: RegExp }[] = [
  {
    name: "an infinite loop while loading",
    source: "while (true) {} export function EmailTemplate() { return null; }",
    expected: /longer than 1000 ms/,
  },
  {
    name: "an infinite loop while rendering",
    source: "export function EmailTemplate() { for (;;) {} }",
    expected: /longer than 1000 ms/,
  },
  {
    name: "an infinite loop that catches the interrupt",
    source: "export function EmailTemplate() { for (;;) { try { while (true) {} } catch {} } }",
    expected: /longer than 1000 ms/,
  },
  {
    name: "catastrophic regular-expression backtracking",
    source: 'export function EmailTemplate() { return <p>{String(/^(a+)+$/.test("a".repeat(40) + "b"))}</p>; }',
    expected: /longer than 1000 ms/,
  },
  {
    name: "a microtask flood while loading",
    source: "(function f() { Promise.resolve().then(f); })(); export function EmailTemplate() { return <p />; }",
    expected: /more than 10000 promise jobs/,
  },
  {
    name: "a microtask flood while rendering",
    source: "export function EmailTemplate() { (async () => { for (;;) await null; })(); return <p />; }",
    expected: /more than 10000 promise jobs/,
  },
  {
    name: "a 100 MB string",
    source: 'const s = "x".repeat(100_000_000); export function EmailTemplate() { return <p>{s}</p>; }',
    expected: /more than 64 MiB of memory/,
  },
  // Each concat is one slow built-in call: the time limit may come first.
  {
    name: "an array doubling until memory runs out",
    source: "let a = [1]; for (;;) a = a.concat(a); export function EmailTemplate() { return null; }",
    expected: /more than 64 MiB of memory|longer than 1000 ms/,
  },
  {
    name: "buffers piling up until memory runs out",
    source: "const a = []; for (;;) a.push(new Uint8Array(1 << 20)); export function EmailTemplate() { return null; }",
    expected: /more than 64 MiB of memory/,
  },
  {
    name: "a memory bomb that catches out-of-memory errors",
    source:
      'const a = []; for (;;) { try { a.push("x".repeat(1_000_000) + a.length); } catch {} } export function EmailTemplate() { return null; }',
    expected: /more than 64 MiB of memory|longer than 1000 ms/,
  },
  {
    name: "an HTML string over the output limit",
    source: 'export function EmailTemplate() { return <p>{"x".repeat(3 * 1024 * 1024)}</p>; }',
    expected: /larger than 2 MiB/,
  },
  {
    name: "many repeated elements over the output limit",
    source:
      'export function EmailTemplate() { return <div>{Array.from({ length: 3_000 }, (_, i) => <p key={i}>{"y".repeat(800)}</p>)}</div>; }',
    expected: /larger than 2 MiB/,
  },
  {
    name: "unbounded recursion",
    source: "function f(n) { return f(n + 1) + 1; } export function EmailTemplate() { return <p>{f(0)}</p>; }",
    expected: /stack overflow/,
  },
  {
    name: "recursion through built-ins (map, JSON.stringify, getters)",
    source:
      "function f(n) { return [n].map(f); } const o = { get x() { return JSON.stringify({ toJSON: () => o.x }); } }; export function EmailTemplate() { return <p>{String(f(0)) + o.x}</p>; }",
    expected: /stack overflow/,
  },
  {
    name: "elements nested 100,000 deep",
    source:
      "export function EmailTemplate() { let e = <b />; for (let i = 0; i < 100_000; i++) e = <i>{e}</i>; return e; }",
    expected: /stack overflow/,
  },
  {
    name: "a parser bomb",
    source: 'export function EmailTemplate() { return <p>{String(eval("[".repeat(1_000_000)))}</p>; }',
    expected: /stack overflow/,
  },
  {
    name: "JSON nested 1,000,000 deep",
    source: 'export function EmailTemplate() { return <p>{String(JSON.parse("[".repeat(1_000_000)))}</p>; }',
    expected: /stack overflow/,
  },
];

describe("exhaustion answers EMAIL_RENDERING_ERROR promptly, and the next email renders", () => {
  it.each(exhaustion)(
    "$name",
    async ({ source, expected }) => {
      // How promptly is a figure for the bench (tests never assert on time); the message names the bound that acted.
      expect(await attempt(source)).toEqual({ error: expect.stringMatching(expected) });
      expect(await attempt(normal)).toEqual({ text: "still fine" });
      // Some run until the render time limit stops them.
    },
    30_000,
  );

  it("states its bounds", () => {
    expect(RENDER_LIMITS).toEqual({
      timeMillis: 5000,
      memoryBytes: 64 * MiB,
      stackBytes: 256 * 1024,
      promiseJobs: 10_000,
      htmlChars: 2 * MiB,
    });
  });
});
