import { afterAll, beforeEach, describe } from "vitest";
import type { FakeProvider } from "@authsim/fake-provider";
import { serveFakeProvider } from "../harness/serve.ts";
import { inProcessTarget, urlTarget, type InProcessTarget, type Target } from "../targets.ts";
import { strongAuthSuites } from "./strong-auth.case.ts";

/**
 * The strong-auth suites (issue 5) against the fake in this process (a fresh provider per test, the SDK on its manual
 * clock) and against one fake served on a loopback port and shared by every case, as a long-lived server would be.
 */

let inProcess: InProcessTarget = inProcessTarget();
beforeEach(() => {
  inProcess = inProcessTarget();
});
describe("strong auth: in-process fake", () => {
  strongAuthSuites(() => inProcess);
});

const served = await serveFakeProvider();
afterAll(() => served.close());
const overUrl: Target & { provider: FakeProvider } = {
  ...urlTarget({ baseUrl: served.baseUrl, hasControls: true }),
  provider: served.provider,
};
describe(`strong auth: fake over HTTP (${overUrl.name})`, () => {
  strongAuthSuites(() => overUrl);
});
