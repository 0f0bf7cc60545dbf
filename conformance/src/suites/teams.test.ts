import { afterAll, beforeEach, describe } from "vitest";
import type { FakeProvider } from "@authsim/fake-provider";
import { serveFakeProvider } from "../harness/serve.ts";
import { inProcessTarget, urlTarget, type InProcessTarget, type Target } from "../targets.ts";
import { permissionCases } from "./permissions.case.ts";
import { teamCases } from "./teams.case.ts";

/**
 * The teams and permissions suites (issue 3) against the fake in this process (a fresh provider per test, the SDK on
 * its manual clock) and against one fake served on a loopback port and shared by every case, as a long-lived server
 * would be (so the cases rely on unique names, never on a fresh state).
 */
function suites(getTarget: () => Target): void {
  teamCases(getTarget);
  permissionCases(getTarget);
}

let inProcess: InProcessTarget = inProcessTarget();
beforeEach(() => {
  inProcess = inProcessTarget();
});
describe("teams and permissions: in-process fake", () => {
  suites(() => inProcess);
});

const served = await serveFakeProvider();
afterAll(() => served.close());
const overUrl: Target & { provider: FakeProvider } = {
  ...urlTarget({ baseUrl: served.baseUrl, hasControls: true }),
  provider: served.provider,
};
describe(`teams and permissions: fake over HTTP (${overUrl.name})`, () => {
  suites(() => overUrl);
});
