import { z } from "zod";
import { isKnownErrorCode, knownErrorSpec } from "@authsim/sdk/contract";

/**
 * Faults as data, msw-style (`use()` / `resetHandlers()` / `once`): a rule matches method + path (+ project) and
 * answers a status, a known error, added latency, or a dropped connection — once, N times or until removed, with a
 * seedable probability.
 *
 * A request walks the rules in the order they were added. A latency rule that fires waits and the walk goes on, so
 * latency stacks with later latency rules and with the answering rule after it; the first status, known-error or drop
 * rule that fires answers and ends the walk. A rule is spent (`remaining` down, `hits` up) only when it acts: a
 * latency rule that waited counts as fired; a rule after the answering one is untouched.
 */
const concreteKnownErrorCode = z.string().refine((c) => isKnownErrorCode(c) && !knownErrorSpec(c).abstract, "must be a concrete known-error code");

export const faultAction = z.discriminatedUnion("type", [
  /** e.g. 429 with Retry-After, 508 with the INFINITE_LOOP_DETECTED marker, 503. */
  z.strictObject({
    type: z.literal("status"),
    status: z.number().int().min(200).max(599),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string().optional(),
  }),
  z.strictObject({ type: z.literal("known-error"), code: concreteKnownErrorCode, details: z.record(z.string(), z.unknown()).optional() }),
  /** Waits, then lets the request through, or on to the next matching rule (latency stacks with its answer). */
  z.strictObject({ type: z.literal("latency"), millis: z.number().int().min(0).max(60_000) }),
  /** The connection is dropped: the client sees a network error. */
  z.strictObject({ type: z.literal("drop") }),
]);
export type FaultAction = z.infer<typeof faultAction>;

export const faultRuleInput = z.strictObject({
  /** Any method when absent. */
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).optional(),
  /** Path under /api/v1, e.g. "/users/me"; `*` matches one segment, a trailing `**` any rest, `:name` one segment. */
  path: z.string().startsWith("/"),
  projectId: z.string().optional(),
  action: faultAction,
  /** How many matching requests it affects; null = until removed. Default 1 (once). */
  times: z.number().int().positive().nullable().optional(),
  /** Chance (0–1) that a matching request is affected, drawn from the provider's random source. Default 1. */
  probability: z.number().min(0).max(1).optional(),
});
export type FaultRuleInput = z.input<typeof faultRuleInput>;

export interface FaultRule {
  id: string;
  method: string | null;
  path: string;
  projectId: string | null;
  action: FaultAction;
  remaining: number | null;
  probability: number;
  hits: number;
}

/** Whether an /api/v1-relative path matches a rule's path pattern. */
export function matchesPath(pattern: string, path: string): boolean {
  const want = pattern.split("/").filter(Boolean);
  const got = path.split("/").filter(Boolean);
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w === "**") return true;
    if (i >= got.length) return false;
    if (w !== "*" && !w.startsWith(":") && w !== got[i]) return false;
  }
  return want.length === got.length;
}
