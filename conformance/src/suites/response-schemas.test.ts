import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OperationAnswer } from "@authsim/fake-provider";
import { operations, operationsById } from "@authsim/sdk/contract";
import { inProcessTarget, type InProcessTarget } from "../targets.ts";
import { everySuite } from "./all.ts";
import { extraCalls } from "./response-extras.ts";
import { extraPaymentCalls } from "./response-extras-payments.ts";
import { internalExtraCalls } from "./response-extras-internal.ts";
import { checkAnswer, claimedAccessType, type AnswerSeen } from "./response-check.ts";

/**
 * The contract's answers (each operation's `responses` in sdk/src/contract/areas/<area>.ts) is true of the fake: every conformance suite runs
 * against the fake in this process with each answer of each operation recorded (FakeProviderOptions.onAnswer) and,
 * after each case, held to what the contract lists for that operation: the status, and a body the declared schema
 * parses without dropping a key. A mismatch fails the case that drew the answer, naming the operation.
 */

type Seen = AnswerSeen & { operationId: string };
const pending: Promise<Seen>[] = [];
const covered = new Set<string>();

async function read({ operationId, request, response }: OperationAnswer): Promise<Seen> {
  return {
    operationId,
    status: response.status,
    headers: response.headers,
    body: await response.text(),
    accessType: claimedAccessType(request.headers),
  };
}

const recordingTarget = (): InProcessTarget => inProcessTarget({ onAnswer: (answer) => pending.push(read(answer)) });

// As in in-process.test.ts: the first target is read while the cases are declared, each case then gets its own.
let target = recordingTarget();
beforeEach(() => {
  target = recordingTarget();
});
afterEach(async () => {
  const problems: string[] = [];
  for (const seen of await Promise.all(pending.splice(0))) {
    const operation = operationsById.get(seen.operationId)!;
    const verdict = checkAnswer(operation, seen);
    if (verdict.kind === "matches") covered.add(operation.id);
    if (verdict.kind === "problem") problems.push(`${operation.id}: ${verdict.problem}`);
  }
  expect(problems).toEqual([]);
});

describe("every answer the suites draw from the in-process fake matches the contract's response table", () => {
  everySuite(() => target);
});

describe("so do the answers of operations the suites do not call successfully", () => {
  extraCalls(() => target);
  extraPaymentCalls(() => target);
  internalExtraCalls(() => target);
});

// Declared last, so it runs after every case above (a file's tests run in order). A new operation, or a suite that
// stops calling one, shows here: give it a successful call in a suite or in response-extras.ts.
/**
 * Operations no offline provider answers successfully: native Apple sign-in needs a token signed by Apple's keys
 * (ops/oauth/oauth-apple-native.ts); the local-emulator project route answers only in a mode of the real service authsim never
 * runs in (ops/internal/internal-extras.ts), so it always refuses here, as does the preview project route outside preview mode;
 * the AI proxy's root is a path its model provider serves nothing at (ops/ai/ai-proxy.ts). The contract lists each with
 * the real success shape. The integrations' OpenID Connect provider serves nothing on PUT, PATCH or DELETE (its own 404);
 * upstream's route exports them, so the contract lists them.
 */
const neverSuccessfulHere = new Set([
  "appleNativeSignIn",
  "localEmulatorProject",
  "previewCreateProject",
  "aiProxyRootGet",
  "aiProxyRootPost",
  ...(["neon", "custom"] as const).flatMap((f) => [`${f}IdpPut`, `${f}IdpPatch`, `${f}IdpDelete`]),
]);

it("checked a successful answer of every operation of the contract", () => {
  expect(operations.map((o) => o.id).filter((id) => !covered.has(id) && !neverSuccessfulHere.has(id))).toEqual([]);
});
