import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { fillPathParams, operations } from "@authsim/sdk/contract";
import { buildArsenal, type Arsenal } from "./arsenal.ts";
import { hostileString } from "./json.ts";
import { requestArb, type FuzzRequest } from "./request-arb.ts";
import { checkOne, describeRequest, FUZZ_SEED } from "./run.ts";
import { buildWorld, worldSecrets } from "./world.ts";

/**
 * The transport around the operations (protocol.md §1): every contract path with every method (the wrong ones
 * included, and methods outside the API's set), and paths that are no operation at all. Same invariants as the
 * per-operation fuzzing.
 */
const RUNS = Number(process.env.AUTHSIM_FUZZ_RUNS ?? 20) * 8;

let arsenal: Arsenal;
beforeAll(async () => {
  arsenal = await buildArsenal(await buildWorld({ seed: "authsim-fuzz-transport" }));
});

// fetch refuses CONNECT, TRACE and TRACK itself, so they never reach a provider in process.
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "PROPFIND", "FOO", "get"];

const strayPath = fc.oneof(
  fc.constantFrom(
    "/api/v1/no-such-thing",
    "/api/v1/users/me/extra",
    "/api/v2/users",
    "/api/v1//users",
    "/api/v1/users/%2e%2e/me",
    "/api",
    "/api/v1/",
    "/__emulator/nope",
  ),
  hostileString.map((s) => {
    try {
      return `/api/v1/${encodeURIComponent(s)}`;
    } catch {
      return "/api/v1/%ED%A0%80";
    }
  }),
);

describe("fuzzing the transport", () => {
  it(
    "keeps the invariants with any method on any contract path, and on paths that are no operation",
    async () => {
      const secrets = worldSecrets(arsenal.world);
      const cases = fc.integer({ min: 0, max: operations.length - 1 }).chain((i) => {
        const operation = operations[i]!;
        return fc.record({
          operation: fc.constant(operation),
          request: requestArb(operation, arsenal),
          method: fc.constantFrom(...methods),
          stray: fc.option(strayPath, { freq: 3, nil: undefined }),
        });
      });
      await fc.assert(
        fc.asyncProperty(cases, async ({ operation, request, method, stray }) => {
          const url = stray === undefined ? request.url : `${new URL(request.url).origin}${stray}`;
          // Bodies go only with methods that may carry one (fetch refuses a GET or HEAD body).
          const bodyless = method.toUpperCase() === "GET" || method === "HEAD";
          const sent: FuzzRequest = {
            ...request,
            method,
            url,
            ...(bodyless ? { body: undefined, headers: request.headers.filter(([k]) => k !== "content-type") } : {}),
          };
          // Another method on the same path may be another operation's (the AI proxy's GET and POST): its answers are
          // held to that operation's refusals.
          const served =
            stray === undefined
              ? (operations.find((o) => o.path === operation.path && o.method === method.toUpperCase()) ?? operation)
              : operation;
          const problems = await checkOne(served, arsenal, sent, secrets);
          if (problems.length > 0) throw new Error(`${problems.join("\n")}\n\nrequest:\n${describeRequest(sent)}`);
        }),
        { seed: FUZZ_SEED, numRuns: RUNS },
      );
      // A longer hunt (AUTHSIM_FUZZ_RUNS) gets the time it needs.
    },
    Math.max(30_000, RUNS * 100),
  );

  it("answers a preflight on any API path with an empty 200, whatever the headers", async () => {
    const preflight = fc.tuple(fc.constantFrom(...operations), fc.constantFrom("PATCH", "DELETE", "FOO"));
    await fc.assert(
      fc.asyncProperty(preflight, async ([operation, requested]) => {
        const response = await arsenal.world.provider.fetch(
          `http://authsim.fuzz/api/v1${fillPathParams(operation.path, () => "x")}`,
          {
            method: "OPTIONS",
            headers: { origin: "http://evil.example.com", "access-control-request-method": requested },
          },
        );
        expect(response.status).toBe(200);
        expect(await response.text()).toBe("");
      }),
      { seed: FUZZ_SEED, numRuns: 30 },
    );
  });
});
