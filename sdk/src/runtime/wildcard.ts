/**
 * Wildcard patterns matched in time linear in the text for a given pattern, whatever the pattern: trusted-domain host
 * patterns (`*`, `**`), fixed-OTP address globs and SQL LIKE. These patterns come from configuration or from a request,
 * and the regular expressions they used to be compiled to backtrack (`^[^.]*-[^.]*-[^.]*\.x$` against a long host took
 * seconds and stalled the server), so they are matched here without a regular expression.
 *
 * A pattern is a list of parts: a literal character, "any one character", or "any run of characters", optionally of
 * characters other than one (a host label's `*` stops at dots). Patterns whose runs stop nowhere are matched greedily,
 * segment by segment (leftmost occurrence of each literal segment between runs: correct for such globs, and the
 * search is the engine's native indexOf); the others by simulating the pattern's automaton over the text, one set of
 * positions per character: O(text × pattern) at worst, never exponential.
 */

export type WildcardPart = { kind: "char"; char: string } | { kind: "one" } | { kind: "run"; except?: string };

/** Counts the steps a match takes (analytics queries charge them to their budget); may throw to stop the match. */
export type StepMeter = (steps: number) => void;

export interface Wildcard {
  /** Whether the whole text matches the pattern. */
  matches(text: string, meter?: StepMeter): boolean;
}

/** A segment between runs: its characters, `null` standing for "any one character". */
type Segment = (string | null)[];

export function compileWildcard(parts: readonly WildcardPart[]): Wildcard {
  return parts.some((p) => p.kind === "run" && p.except !== undefined) ? automaton(parts) : greedy(parts);
}

const noMeter: StepMeter = () => undefined;

/** Runs stop nowhere: the first and last segments are anchored, each middle one taken at its leftmost occurrence. */
function greedy(parts: readonly WildcardPart[]): Wildcard {
  const segments: Segment[] = [[]];
  for (const part of parts) {
    if (part.kind === "run") segments.push([]);
    else segments[segments.length - 1]!.push(part.kind === "char" ? part.char : null);
  }
  const minLength = segments.reduce((n, s) => n + s.length, 0);
  const hasRun = segments.length > 1;
  return {
    matches(text, meter = noMeter) {
      if (text.length < minLength || (!hasRun && text.length !== minLength)) return false;
      const first = segments[0]!;
      const last = segments[segments.length - 1]!;
      meter(first.length);
      if (!segmentAt(text, 0, first)) return false;
      if (!hasRun) return true;
      const end = text.length - last.length;
      meter(last.length);
      if (!segmentAt(text, end, last)) return false;
      let from = first.length;
      for (let i = 1; i < segments.length - 1; i++) {
        const found = find(text, from, end, segments[i]!, meter);
        if (found < 0) return false;
        from = found + segments[i]!.length;
      }
      return true;
    },
  };
}

function segmentAt(text: string, at: number, segment: Segment): boolean {
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c !== null && text[at + i] !== c) return false;
  }
  return true;
}

/** The leftmost start of `segment` in text[from, end), or -1. */
function find(text: string, from: number, end: number, segment: Segment, meter: StepMeter): number {
  if (segment.length === 0) return from;
  if (!segment.includes(null)) {
    const found = text.indexOf(segment.join(""), from);
    // The native search's work: the text it skipped and the segment compared (Boyer-Moore-Horspool at worst repeats the
    // comparison per position, a bound the caller's budget catches on the next segment).
    meter((found < 0 ? end - from : found - from) + segment.length);
    return found >= 0 && found + segment.length <= end ? found : -1;
  }
  for (let at = from; at + segment.length <= end; at++) {
    meter(segment.length);
    if (segmentAt(text, at, segment)) return at;
  }
  return -1;
}

/**
 * Simulates the pattern's automaton: states are positions in the pattern, a run's state loops on its characters. The
 * live states are kept as a list (a host pattern has few live at once), each part's test precomputed as numbers.
 */
function automaton(parts: readonly WildcardPart[]): Wildcard {
  const n = parts.length;
  // Per part: -1 any one character, -2 a run of anything, -3 a run stopping at `stops[i]`, else the character's code.
  const tests = new Int32Array(n);
  const stops: (string | undefined)[] = [];
  parts.forEach((part, i) => {
    tests[i] =
      part.kind === "char" ? part.char.charCodeAt(0) : part.kind === "one" ? -1 : part.except === undefined ? -2 : -3;
    stops[i] = part.kind === "run" ? part.except : undefined;
  });
  return {
    matches(text, meter = noMeter) {
      let current = new Int32Array(n + 1);
      let next = new Int32Array(n + 1);
      // Which step last added each state, so a state is listed once per step.
      const seen = new Int32Array(n + 1).fill(-1);
      const add = (list: Int32Array, length: number, state: number, step: number): number => {
        // A run may match nothing: reaching it reaches the position after it too.
        for (let s = state; s <= n && seen[s] !== step; s++) {
          seen[s] = step;
          list[length++] = s;
          if (s === n || tests[s]! > -2) break;
        }
        return length;
      };
      let live = add(current, 0, 0, 0);
      for (let t = 0; t < text.length; t++) {
        const code = text.charCodeAt(t);
        let count = 0;
        for (let k = 0; k < live; k++) {
          const state = current[k]!;
          if (state === n) continue;
          const test = tests[state]!;
          if (test === -2 || (test === -3 && !stops[state]!.includes(text[t]!))) count = add(next, count, state, t + 1);
          else if (test === -1 || test === code) count = add(next, count, state + 1, t + 1);
        }
        meter(live + 1);
        if (count === 0) return false;
        [current, next] = [next, current];
        live = count;
      }
      for (let k = 0; k < live; k++) if (current[k] === n) return true;
      return false;
    },
  };
}
