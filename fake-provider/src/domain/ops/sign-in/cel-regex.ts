/**
 * The patterns of sign-up rules' `matches()`, run in time linear in the text. The real service reads the pattern as a
 * JavaScript regular expression (no flags), so a pattern is valid exactly when `new RegExp(pattern)` accepts it; but
 * JavaScript's engine backtracks, and `^([a-z0-9]+)+@corp\.example$` (valid, and matching normal addresses) took
 * seconds per character of a client's sign-up email. So the pattern is checked by JavaScript's parser (its syntax and
 * its errors are the real service's), then rewritten into RE2's syntax with JavaScript's meaning and run by re2js, a
 * port of RE2 (linear time, pure JavaScript, so the core keeps to web standards).
 *
 * What RE2 cannot run in linear time — back-references and lookaheads, or repeat counts over RE2's bound of 1000 — is
 * refused like an invalid pattern: the rule evaluates to an error instead of stalling the server. Captures become
 * non-capturing groups (`matches()` answers a boolean; with back-references refused, nothing reads them). Each pattern is
 * compiled once, then taken from a small cache: rules are evaluated on every sign-up.
 *
 * re2js is the largest library the dev server would otherwise parse at every start, and few projects write a pattern:
 * it loads with the first rule that uses `matches()` (loadPatternEngine, awaited by sign-up-rules.ts before it
 * evaluates), not with the emulator.
 */

/** A compiled pattern's test, or null when the real service would accept it but it cannot run in linear time. */
export type PatternTest = ((text: string) => boolean) | null;

/** `new RegExp(pattern)` refused it: the real service's "invalid regex pattern". */
export class InvalidPattern extends Error {}

type Engine = typeof import("re2js").RE2JS;
let engine: Engine | undefined;

/** Loads re2js once; compileMatchesPattern needs it loaded. */
export async function loadPatternEngine(): Promise<void> {
  engine ??= (await import("re2js")).RE2JS;
}

const CACHE_SIZE = 256;
const cache = new Map<string, PatternTest | InvalidPattern>();

export function compileMatchesPattern(pattern: string): PatternTest {
  let entry = cache.get(pattern);
  if (entry === undefined) {
    entry = compile(pattern);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(pattern, entry);
  }
  if (entry instanceof InvalidPattern) throw entry;
  return entry;
}

function compile(pattern: string): PatternTest | InvalidPattern {
  try {
    // Only parsed, never run: compiling is linear in the pattern, and it is the real service's syntax check.
    new RegExp(pattern);
  } catch (e) {
    return new InvalidPattern(e instanceof Error ? e.message : String(e));
  }
  const translated = toRe2(pattern);
  if (translated === null) return null;
  if (!engine) throw new Error("cel-regex: a pattern was compiled before loadPatternEngine() finished");
  const re2 = engine;
  try {
    const re = re2.compile(translated, re2.LOOKBEHINDS);
    return (text) => re.test(text);
  } catch {
    return null;
  }
}

// JavaScript's \s (WhiteSpace and LineTerminator), as code point ranges; RE2's \s is ASCII only.
const SPACE_RANGES: readonly [number, number][] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const hex = (code: number) => `\\x{${code.toString(16)}}`;
const rangeText = ([from, to]: readonly [number, number]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`);
const SPACE = SPACE_RANGES.map(rangeText).join("");
const NOT_SPACE = SPACE_RANGES.map(
  ([from], i) => [i === 0 ? 0 : SPACE_RANGES[i - 1]![1] + 1, from - 1] as [number, number],
)
  .filter(([a, b]) => a <= b)
  .concat([[SPACE_RANGES[SPACE_RANGES.length - 1]![1] + 1, 0x10ffff]])
  .map(rangeText)
  .join("");
// JavaScript's `.` without the s flag: anything but a line terminator.
const DOT = "[^\\n\\r\\x{2028}\\x{2029}]";

/** A literal character in RE2's syntax (escaped where RE2 would read it as syntax). */
function literal(c: string): string {
  if (/[!-/:-@[-`{-~]/.test(c)) return `\\${c}`;
  // Other ASCII (controls, space) by code; letters, digits and non-ASCII as they are (a surrogate pair stays a pair).
  return c.charCodeAt(0) < 0x80 && !/[A-Za-z0-9]/.test(c) ? hex(c.charCodeAt(0)) : c;
}

const isHex = (text: string) => /^[0-9a-fA-F]+$/.test(text);

/**
 * The escape at `i` (just after the backslash) as RE2 text, and the index after it; null when it is a back-reference.
 * `inClass`: inside brackets, where `\b` is a backspace and digits are always octal.
 */
function escape(
  p: string,
  i: number,
  groups: number,
  named: boolean,
  inClass: boolean,
): { text: string; next: number; single: boolean } | null {
  const c = p[i]!;
  if ("dDwW".includes(c) || (!inClass && "bB".includes(c))) return { text: `\\${c}`, next: i + 1, single: false };
  if (c === "s") return { text: inClass ? SPACE : `[${SPACE}]`, next: i + 1, single: false };
  if (c === "S") return { text: inClass ? NOT_SPACE : `[${NOT_SPACE}]`, next: i + 1, single: false };
  const single = (code: number, next: number) => ({ text: hex(code), next, single: true });
  const controls: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13, b: 8 };
  if (Object.hasOwn(controls, c)) return single(controls[c]!, i + 1);
  if (c === "x" && isHex(p.slice(i + 1, i + 3)) && p.slice(i + 1, i + 3).length === 2)
    return single(parseInt(p.slice(i + 1, i + 3), 16), i + 3);
  if (c === "u" && isHex(p.slice(i + 1, i + 5)) && p.slice(i + 1, i + 5).length === 4)
    return single(parseInt(p.slice(i + 1, i + 5), 16), i + 5);
  if (c === "c") {
    const letter = p[i + 1];
    if (letter !== undefined && (/[A-Za-z]/.test(letter) || (inClass && /[0-9_]/.test(letter))))
      return single(letter.charCodeAt(0) % 32, i + 2);
    // Annex B: a `\c` that starts no control escape is a backslash, then the `c` read on its own.
    return { text: "\\\\", next: i, single: true };
  }
  if (c === "k" && named) return null;
  if (/[0-9]/.test(c)) {
    const digits = /^[0-9]+/.exec(p.slice(i))![0];
    if (!inClass && c !== "0" && Number(digits) <= groups) return null;
    if (c === "8" || c === "9") return single(c.charCodeAt(0), i + 1);
    // Annex B: a legacy octal escape, up to three digits and at most \377.
    let octal = /^[0-7]{1,3}/.exec(digits)?.[0] ?? "";
    if (parseInt(octal, 8) > 0o377) octal = octal.slice(0, 2);
    return single(parseInt(octal, 8), i + octal.length);
  }
  return { text: literal(c), next: i + 1, single: true };
}

/** The bracketed class starting at `i` (on the `[`) as RE2 text, and the index after it. */
function charClass(p: string, i: number, groups: number, named: boolean): { text: string; next: number } | null {
  let j = i + 1;
  const negated = p[j] === "^";
  if (negated) j++;
  // `[]` matches nothing and `[^]` any character, in JavaScript.
  if (p[j] === "]") return { text: negated ? "[\\x{0}-\\x{10ffff}]" : "[^\\x{0}-\\x{10ffff}]", next: j + 1 };
  const atoms: { text: string; single: boolean }[] = [];
  while (p[j] !== "]") {
    if (p[j] === "\\") {
      const e = escape(p, j + 1, groups, named, true);
      if (e === null) return null;
      atoms.push({ text: e.text, single: e.single });
      j = e.next;
    } else {
      atoms.push({ text: p[j] === "-" ? "-" : literal(p[j]!), single: true });
      j++;
    }
  }
  // A `-` is a range only between two single characters (Annex B reads `[\d-z]` as three atoms); else a literal.
  const out = atoms.map((atom, k) => {
    if (atom.text !== "-") return atom.text;
    const ranged =
      k > 0 && k < atoms.length - 1 && atoms[k - 1]!.single && atoms[k + 1]!.single && atoms[k - 1]!.text !== "-";
    return ranged ? "-" : "\\-";
  });
  return { text: `[${negated ? "^" : ""}${out.join("")}]`, next: j + 1 };
}

/** A JavaScript pattern (already accepted by `new RegExp`) in RE2's syntax with the same meaning, or null. */
export function toRe2(p: string): string | null {
  // Capturing groups, for telling `\2` (a back-reference) from a legacy octal escape.
  const groups = (p.replace(/\\.|\[(?:\\.|[^\]\\])*\]/gs, "").match(/\((?!\?)|\(\?<(?![=!])/g) ?? []).length;
  const named = /\(\?<(?![=!])/.test(p);
  let out = "";
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === "\\") {
      const e = escape(p, i + 1, groups, named, false);
      if (e === null) return null;
      out += e.text;
      i = e.next;
    } else if (c === "[") {
      const cls = charClass(p, i, groups, named);
      if (cls === null) return null;
      out += cls.text;
      i = cls.next;
    } else if (c === "(") {
      if (p.startsWith("(?=", i) || p.startsWith("(?!", i)) return null;
      if (p.startsWith("(?<=", i) || p.startsWith("(?<!", i)) {
        out += p.slice(i, i + 4);
        i += 4;
      } else if (p.startsWith("(?<", i)) {
        out += "(?:";
        i = p.indexOf(">", i) + 1;
      } else {
        out += "(?:";
        i += p.startsWith("(?:", i) ? 3 : 1;
      }
    } else if (c === "{") {
      const repeat = /^\{(\d+)(?:,(\d*))?\}/.exec(p.slice(i));
      if (repeat) {
        if (Number(repeat[1]) > 1000 || Number(repeat[2] ?? 0) > 1000) return null;
        out += repeat[0];
        i += repeat[0].length;
      } else {
        out += "\\{";
        i++;
      }
    } else if (c === ".") {
      out += DOT;
      i++;
    } else if ("^$|)*+?".includes(c)) {
      out += c;
      i++;
    } else {
      out += literal(c);
      i++;
    }
  }
  return out;
}
