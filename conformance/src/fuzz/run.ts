import fc from "fast-check";
import { headerFamilyOf, type Operation } from "@authsim/sdk/contract";
import type { Arsenal } from "./arsenal.ts";
import { checkAnswer, realStatus, stateChanges, type Answer } from "./invariants.ts";
import { requestArb, type FuzzRequest } from "./request-arb.ts";
import { worldSecrets } from "./world.ts";

/**
 * The fuzz property of one operation: from the world's snapshot, send one generated request and check the answer's
 * invariants; when the request was refused, also check the store is as it was. Fixed seed, so a failure replays.
 */
export const FUZZ_SEED = 20_260_101;

export function seedOf(operationId: string): number {
  let hash = FUZZ_SEED;
  for (const ch of operationId) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) | 0;
  return hash;
}

export async function send(arsenal: Arsenal, request: FuzzRequest): Promise<Answer> {
  const response = await arsenal.world.provider.fetch(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A short description of a request for a failure message (long values cut). */
export function describeRequest(request: FuzzRequest): string {
  const cut = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…(${s.length} chars)` : s);
  const headers = request.headers.map(([k, v]) => `${k}: ${cut(v)}`).join("\n  ");
  return `${request.method} ${cut(request.url)}\n  ${headers}\n  body (${request.bodyKind}): ${cut(request.body ?? "(none)")}`;
}

/** The own keys of the prototypes every object and array inherits from: a request must never add to them. */
const sharedPrototypes = [Object.prototype, Array.prototype, Function.prototype, String.prototype] as const;
const prototypeKeys = () => sharedPrototypes.map((p) => Reflect.ownKeys(p).map(String).sort().join(","));

export async function checkOne(
  operation: Operation,
  arsenal: Arsenal,
  request: FuzzRequest,
  secrets: readonly string[],
): Promise<string[]> {
  const { world } = arsenal;
  world.provider.restore(world.baseline);
  const before = world.unexpected.length;
  const prototypesBefore = prototypeKeys();
  const answer = await send(arsenal, request);
  const carried = [request.url, ...request.headers.map(([, v]) => v), request.body ?? ""].join("\n");
  const sent = {
    method: request.method,
    api: new URL(request.url).pathname.startsWith("/api/"),
    override: request.override,
    family: headerFamilyOf(request.headers.map(([name]) => name)),
    carried,
  };
  const problems = checkAnswer(operation, sent, answer, secrets);
  if (prototypeKeys().some((keys, i) => keys !== prototypesBefore[i]))
    problems.push("the request changed a shared prototype (prototype pollution)");
  if (world.unexpected.length > before)
    problems.push(`the provider reported an unexpected error: ${String(world.unexpected.at(-1))}`);
  if (realStatus(answer) >= 400)
    problems.push(
      ...stateChanges(world.baseline.store, world.provider.snapshot().store).map(
        (p) => `refused (${realStatus(answer)}) but changed state: ${p}`,
      ),
    );
  return problems;
}

export async function fuzzOperation(operation: Operation, arsenal: Arsenal, numRuns: number): Promise<void> {
  const secrets = worldSecrets(arsenal.world);
  await fc.assert(
    fc.asyncProperty(requestArb(operation, arsenal), async (request) => {
      const problems = await checkOne(operation, arsenal, request, secrets);
      if (problems.length > 0) throw new Error(`${problems.join("\n")}\n\nrequest:\n${describeRequest(request)}`);
    }),
    // One seed per operation: the same seed everywhere would pick the same header recipes for every operation.
    { seed: seedOf(operation.id), numRuns },
  );
}
