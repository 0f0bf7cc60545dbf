import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { startCli, type StartedCli } from "authsim/testing";
import { MAX_BODY_BYTES } from "@authsim/fake-provider/dev-server";
import { upload } from "./test-support/upload.ts";

/**
 * What any web page could do to `npm start` (issue 31), against the real dev server: a 100 MB body. The bounds are
 * stated with each test and generous for a busy machine; what was measured before is in the issue.
 */
let cli: StartedCli;
// Starting the dev server takes seconds on a busy machine (more when it rebuilds its pages): past the default hook timeout.
beforeAll(async () => {
  cli = await startCli();
}, 120_000);
afterAll(() => cli?.stop());

const MiB = 1024 * 1024;
const rssBytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

const apiHeaders = {
  "x-stack-access-type": "client",
  "x-stack-project-id": devProjectSeed.id,
  "x-stack-publishable-client-key": devProjectSeed.keys.publishable_client_key,
};
const signIn = (total: number, declared: boolean) =>
  upload(`${cli.url}/api/v1/auth/password/sign-in`, total, declared, apiHeaders);

describe("a 100 MB body to /api/v1/auth/password/sign-in", () => {
  const tooLarge = { status: 413, text: `Request body too large (max ${MAX_BODY_BYTES} bytes)` };

  it("is refused by its Content-Length within 100 ms, and by counting (sent without a length) within 2 s; RSS stays within 50 MiB of its start", async () => {
    // Warm: the first requests load what every request needs, the refusal's path included.
    expect((await fetch(`${cli.url}/api/v1`)).status).toBe(200);
    expect((await signIn(2 * MAX_BODY_BYTES, true)).status).toBe(413);
    const start = rssBytes(cli.pid);
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(cli.pid))), 5);
    try {
      const declared = await signIn(100 * 1000 * 1000, true);
      expect({ status: declared.status, text: declared.text }).toEqual(tooLarge);
      expect(declared.millis).toBeLessThanOrEqual(100);
      const chunked = await signIn(100 * 1000 * 1000, false);
      expect({ status: chunked.status, text: chunked.text }).toEqual(tooLarge);
      // Sending the 8 MiB it reads before refusing takes time of its own on a busy machine.
      expect(chunked.millis).toBeLessThanOrEqual(2_000);
    } finally {
      clearInterval(sampler);
    }
    expect(peak - start).toBeLessThanOrEqual(50 * MiB);
    // And the server goes on answering.
    expect((await fetch(`${cli.url}/api/v1`)).status).toBe(200);
  });
});

// Not hostile, but only the real server shows it: the Node adapter frames the answers, not the emulator's core.
describe("an answer without a body, through the dev server's Node adapter", () => {
  it("has no Content-Type, as the real service's empty 405s and redirects have none (clients read no body)", async () => {
    const wrongMethod = await fetch(`${cli.url}/api/v1/auth/sessions/current/refresh`, { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("content-type")).toBeNull();
    expect(await wrongMethod.text()).toBe("");
    // An answer with a body keeps its type.
    const root = await fetch(`${cli.url}/api/v1`);
    expect(root.headers.get("content-type")).toMatch(/^text\/plain/);
  });
});
