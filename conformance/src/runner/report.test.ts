import { describe, expect, it } from "vitest";
import { parseRunnerArgs, targetEnv } from "./args.ts";
import { markdownReport, splitSkipReason, summarize, textSummary, type CaseResult } from "./report.ts";

const results: CaseResult[] = [
  { area: "password auth", title: "signs up", state: "passed" },
  { area: "password auth", title: "rejects | pipes", state: "failed", error: "expected 400\nstack" },
  { area: "sessions", title: "expires", state: "skipped", reason: "needs the emulator's control endpoints" },
];

describe("conformance reports", () => {
  it("splits the written skip reason off a case title", () => {
    expect(splitSkipReason("expires tokens (skipped: needs controls; needs a clock)")).toEqual({
      title: "expires tokens",
      reason: "needs controls; needs a clock",
    });
    expect(splitSkipReason("plain title")).toEqual({ title: "plain title" });
  });

  it("summarises per area and ends with the plain 'N passed, N failed' line", () => {
    expect(summarize(results)).toEqual([
      { area: "password auth", passed: 1, failed: 1, skipped: 0 },
      { area: "sessions", passed: 0, failed: 0, skipped: 1 },
    ]);
    const text = textSummary("http://x", results);
    expect(text.split("\n").at(-1)).toBe("1 passed, 1 failed, 1 skipped");
    expect(text).toContain("✗ password auth › rejects | pipes");
    expect(text).toContain("expected 400");
    expect(text).not.toContain("stack");
  });

  it("writes a Markdown fidelity table with escaped cells and every skip reason", () => {
    const md = markdownReport("http://x", results);
    expect(md).toContain("| password auth | 1 | 1 | 0 |");
    expect(md).toContain("| password auth | rejects \\| pipes | ✗ | expected 400 |");
    expect(md).toContain("| sessions | expires | skipped | needs the emulator's control endpoints |");
  });
});

describe("runner arguments", () => {
  it("reads the target and keys, and names the env of the env-target suite", () => {
    const o = parseRunnerArgs([
      "--base-url",
      "http://127.0.0.1:8102",
      "--project-id",
      "p",
      "--keys",
      "a,b,c",
      "--not-fake",
    ]);
    expect(targetEnv(o)).toEqual({
      AUTHSIM_TARGET_URL: "http://127.0.0.1:8102",
      AUTHSIM_TARGET_IS_FAKE: "false",
      AUTHSIM_PROJECT_ID: "p",
      AUTHSIM_PUBLISHABLE_CLIENT_KEY: "a",
      AUTHSIM_SECRET_SERVER_KEY: "b",
      AUTHSIM_SUPER_SECRET_ADMIN_KEY: "c",
    });
  });

  it("refuses a missing or malformed base URL and unknown options", () => {
    expect(() => parseRunnerArgs([])).toThrow(/--base-url is required/);
    expect(() => parseRunnerArgs(["--base-url", "nope"])).toThrow(/not a URL/);
    expect(() => parseRunnerArgs(["--base-url", "http://x", "--frob"])).toThrow(/Unknown option --frob/);
    expect(() => parseRunnerArgs(["--base-url"])).toThrow(/needs a value/);
  });
});
