import { beforeAll, describe, expect, it } from "vitest";
import { operations } from "@authsim/sdk/contract";
import { buildArsenal, type Arsenal } from "./arsenal.ts";
import { POLLUTION_MARKER } from "./json.ts";
import { fuzzOperation } from "./run.ts";
import { buildWorld } from "./world.ts";

/**
 * Fuzzing of every operation of the contract (issue 10): for each, fast-check generates requests from valid-ish to
 * hostile and every answer keeps the invariants of invariants.ts (no 5xx at all, not even a 501,
 * catalogue errors with matching header and body, plain text only where documented, a refused request leaves the
 * store as it was). Fixed seed; a failure prints the shrunk request.
 */
const RUNS_PER_OPERATION = Number(process.env.AUTHSIM_FUZZ_RUNS ?? 20);

let arsenal: Arsenal;
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
const arrayKeys = Object.getOwnPropertyNames(Array.prototype).sort();

beforeAll(async () => {
  arsenal = await buildArsenal(await buildWorld());
});

describe("fuzzing every contract operation", () => {
  for (const operation of operations) {
    it(
      `${operation.id}: ${operation.method} ${operation.path} keeps the wire invariants and refusals change nothing`,
      async () => {
        await fuzzOperation(operation, arsenal, RUNS_PER_OPERATION);
      },
      Math.max(30_000, RUNS_PER_OPERATION * 200),
    );
  }

  // Declared last, so it runs after every operation's requests (tests of a file run in order). Pollution would show
  // on every object of the process, so the shared prototypes are checked once.
  it("left the shared prototypes unpolluted", () => {
    const empty: Record<string, unknown> = {};
    expect(empty[POLLUTION_MARKER]).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>)[POLLUTION_MARKER]).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(arrayKeys);
    expect(Object.getPrototypeOf(empty)).toBe(Object.prototype);
  });
});
