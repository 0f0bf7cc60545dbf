import { afterAll, beforeEach, describe } from "vitest";
import type { FakeProvider } from "@authsim/fake-provider";
import { serveFakeProvider } from "../harness/serve.ts";
import { inProcessTarget, urlTarget, type InProcessTarget, type Target } from "../targets.ts";
import { adminEmailCases } from "./admin-emails.case.ts";
import { adminMiscCases } from "./admin-misc.case.ts";
import { adminProjectCases } from "./admin-project.case.ts";

/**
 * The admin-surface suites (issue 6) against the fake in this process (a fresh provider per test) and against one fake
 * served on a loopback port, shared by every case as a long-lived server would be (so each case makes the project it
 * changes, and names what it creates uniquely).
 */
function adminSuites(getTarget: () => Target): void {
  adminProjectCases(getTarget);
  adminEmailCases(getTarget);
  adminMiscCases(getTarget);
}

let inProcess: InProcessTarget = inProcessTarget();
describe("admin conformance: in-process fake", () => {
  beforeEach(() => {
    inProcess = inProcessTarget();
  });
  adminSuites(() => inProcess);
});

const served = await serveFakeProvider();
afterAll(() => served.close());
const overUrl: Target & { provider: FakeProvider } = {
  ...urlTarget({ baseUrl: served.baseUrl, hasControls: true }),
  provider: served.provider,
};

describe(`admin conformance: fake over HTTP (${overUrl.name})`, () => {
  adminSuites(() => overUrl);
});
