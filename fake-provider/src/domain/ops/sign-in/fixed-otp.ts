import { compileWildcard, type Wildcard, type WildcardPart } from "@authsim/sdk/runtime";

/**
 * Fixed sign-in codes for chosen addresses (`--fixed-otp '*@example.com=123456'`): a developer types a code they know
 * instead of opening the outbox. Only the 6-character OTP half of the 45-character code is fixed (protocol.md §7.2);
 * the nonce half stays random, so the code as a whole is still single-use and tied to the request that sent it.
 */
export interface FixedOtpRule {
  /** An address, or a glob over addresses where `*` stands for any run of characters (`*@example.com`, `*`). */
  pattern: string;
  /** Six digits: they are valid in the code's alphabet (Crockford base32) and read the same upper- or lower-case. */
  code: string;
}

const CODE = /^[0-9]{6}$/;
// One `@` at most (an address's) and no spaces. `=` may appear (addresses allow it): the command line splits at the last.
const PATTERN = /^[^\s@]*(@[^\s@]*)?$/;

/** Why a rule is unusable, or null when it is fine. */
export function fixedOtpRuleProblem(rule: FixedOtpRule): string | null {
  if (rule.pattern.length === 0) return "the address pattern is empty";
  if (!PATTERN.test(rule.pattern))
    return `"${rule.pattern}" is not an address pattern (one @ at most, no spaces; * matches anything)`;
  if (!rule.pattern.includes("@") && rule.pattern !== "*")
    return `"${rule.pattern}" names no address: write e.g. *@example.com, ada@example.com or *`;
  if (!CODE.test(rule.code)) return `the code "${rule.code}" is not 6 digits`;
  return null;
}

/** `PATTERN=CODE` as the command line writes it; throws with the reason when it is not a usable rule. */
export function parseFixedOtpRule(text: string): FixedOtpRule {
  const at = text.lastIndexOf("=");
  if (at < 0) throw new Error(`--fixed-otp expects PATTERN=CODE (e.g. '*@example.com=123456'), not "${text}".`);
  const rule = { pattern: text.slice(0, at).trim(), code: text.slice(at + 1).trim() };
  const problem = fixedOtpRuleProblem(rule);
  if (problem) throw new Error(`--fixed-otp ${text}: ${problem}.`);
  return rule;
}

/** `*` is any run of characters, everything else itself; lower-cased, as addresses compare. */
function globOf(pattern: string): Wildcard {
  return compileWildcard(
    pattern
      .toLowerCase()
      .split("")
      .map((c): WildcardPart => (c === "*" ? { kind: "run" } : { kind: "char", char: c })),
  );
}

/** The code of the first rule whose pattern matches the address (case-insensitively, as addresses compare), or null. */
export function fixedOtpFor(rules: readonly FixedOtpRule[] | undefined, email: string): string | null {
  const address = email.trim().toLowerCase();
  for (const rule of rules ?? []) if (globOf(rule.pattern).matches(address)) return rule.code;
  return null;
}

/** The rules as given, or a RangeError naming the first unusable one (a typo must not silently fix nothing). */
export function checkedFixedOtp(rules: readonly FixedOtpRule[]): readonly FixedOtpRule[] {
  for (const rule of rules) {
    const problem = fixedOtpRuleProblem(rule);
    if (problem) throw new RangeError(`fixedOtp: ${problem}.`);
  }
  return rules.map((rule) => ({ pattern: rule.pattern, code: rule.code }));
}
