import { beforeEach, describe } from "vitest";
import { inProcessTarget, type InProcessTarget } from "../targets.ts";
import { allSuites } from "./all.ts";

/**
 * Every suite against the fake in this process (requests go to its fetch, no port): a fresh provider per test, so
 * clock moves and store writes never leak from one case into another. The SDK shares the provider's manual clock.
 */
// The first one is what the suites read their capabilities from while declaring cases; each test then gets its own.
let target: InProcessTarget = inProcessTarget();
beforeEach(() => {
  target = inProcessTarget();
});

describe("conformance: in-process fake", () => {
  allSuites(() => target);
});
