import { uuid, type RandomSource } from "@authsim/sdk/runtime";
import { faultRuleInput, matchesPath, type FaultRule, type FaultRuleInput } from "./rules.ts";

/** The provider's fault rules: add, list, remove, clear, and pick the rules that fire for a request. */
export interface Faults {
  add(input: FaultRuleInput): FaultRule;
  list(): FaultRule[];
  remove(id: string): boolean;
  clear(): void;
  /**
   * The rules that act on this request, in the order added: any latency rules that fire, then at most one answering
   * rule (status, known error or drop), which ends the walk. Only these are spent (`remaining`, `hits`); a rule after
   * the answering one is not reached, so it keeps its count and draws no chance.
   */
  take(request: { method: string; path: string; projectId: string | null }): FaultRule[];
  /** Whether no rule is set (the usual case): a request then needs no look at its path or headers for them. */
  none(): boolean;
}

/** Whether a rule's action ends the request (every action but latency, which waits and lets the walk go on). */
const answers = (rule: FaultRule): boolean => rule.action.type !== "latency";

export function createFaults(random: RandomSource): Faults {
  let rules: FaultRule[] = [];
  const chance = () => {
    const b = random.bytes(4);
    return (((b[0]! << 24) >>> 0) + (b[1]! << 16) + (b[2]! << 8) + b[3]!) / 2 ** 32;
  };
  return {
    add(input) {
      const parsed = faultRuleInput.parse(input);
      const rule: FaultRule = {
        id: uuid(random),
        method: parsed.method ?? null,
        path: parsed.path,
        projectId: parsed.projectId ?? null,
        action: parsed.action,
        remaining: parsed.times === undefined ? 1 : parsed.times,
        probability: parsed.probability ?? 1,
        hits: 0,
      };
      rules.push(rule);
      // A copy, like list(): the caller's object must not change under it as requests spend the rule.
      return { ...rule };
    },
    list: () => rules.map((r) => ({ ...r })),
    remove(id) {
      const before = rules.length;
      rules = rules.filter((r) => r.id !== id);
      return rules.length !== before;
    },
    clear() {
      rules = [];
    },
    none: () => rules.length === 0,
    take({ method, path, projectId }) {
      // Decided and spent here, synchronously, before the middleware awaits any latency: two concurrent requests can
      // never both use the last count of a rule.
      const fired: FaultRule[] = [];
      for (const rule of rules) {
        if (rule.method && rule.method !== method) continue;
        if (rule.projectId && rule.projectId !== projectId) continue;
        if (!matchesPath(rule.path, path)) continue;
        if (rule.probability < 1 && chance() >= rule.probability) continue;
        rule.hits++;
        if (rule.remaining !== null) rule.remaining--;
        fired.push({ ...rule });
        // The first answering rule decides the response (the middleware returns or throws there): the rules after it
        // would never act, so they must not be spent (msw's `once` handlers behave the same way).
        if (answers(rule)) break;
      }
      rules = rules.filter((r) => r.remaining === null || r.remaining > 0);
      return fired;
    },
  };
}
