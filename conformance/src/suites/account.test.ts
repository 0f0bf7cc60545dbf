import { afterAll, beforeEach, describe } from "vitest";
import type { FakeProvider } from "@authsim/fake-provider";
import { serveFakeProvider } from "../harness/serve.ts";
import { inProcessTarget, urlTarget, type InProcessTarget, type Target } from "../targets.ts";
import { accountCases } from "./account.case.ts";
import { apiKeyCases } from "./api-keys.case.ts";
import { contactChannelCases } from "./contact-channels.case.ts";
import { magicLinkCases } from "./magic-link.case.ts";
import { passwordFlowCases } from "./password-flows.case.ts";

/**
 * The account-surface suites (issue 4) against the fake in this process (a fresh provider per test, the SDK on its
 * manual clock, the outbox read in process) and against one fake served on a loopback port and shared by every case,
 * as a long-lived server would be (unique names throughout; the outbox read through GET /__emulator/outbox).
 */
function suites(getTarget: () => Target): void {
  contactChannelCases(getTarget);
  passwordFlowCases(getTarget);
  magicLinkCases(getTarget);
  accountCases(getTarget);
  apiKeyCases(getTarget);
}

let inProcess: InProcessTarget = inProcessTarget();
beforeEach(() => {
  inProcess = inProcessTarget();
});
describe("account surfaces: in-process fake", () => {
  suites(() => inProcess);
});

const served = await serveFakeProvider();
afterAll(() => served.close());
const overUrl: Target & { provider: FakeProvider } = {
  ...urlTarget({ baseUrl: served.baseUrl, hasControls: true }),
  provider: served.provider,
};
describe(`account surfaces: fake over HTTP (${overUrl.name})`, () => {
  suites(() => overUrl);
});
