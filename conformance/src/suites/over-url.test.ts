import { afterAll, describe } from "vitest";
import { serveFakeProvider } from "../harness/serve.ts";
import { urlTarget, type Target } from "../targets.ts";
import type { FakeProvider } from "@authsim/fake-provider";
import { allSuites } from "./all.ts";

/**
 * Every suite against one fake served on a real loopback port, shared by all cases as a long-lived server would be
 * (so the suites must not depend on a fresh state). Its clock is the wall clock moved only by the control endpoints;
 * the SDK keeps its own, except in cases that share the emulator's through a mirror (emulator-clock.ts). The provider object is in this process, so cases that must seed its store can.
 */
const served = await serveFakeProvider();
afterAll(() => served.close());

const target: Target & { provider: FakeProvider } = {
  ...urlTarget({ baseUrl: served.baseUrl, hasControls: true }),
  provider: served.provider,
};

describe(`conformance: fake over HTTP (${target.name})`, () => {
  allSuites(() => target);
});
