import { compileWildcard, type Wildcard, type WildcardPart } from "@authsim/sdk/runtime";
import { AnalyticsQueryError } from "./analytics-errors.ts";

/** ClickHouse's code for a parameter the query names and the request does not set. */
const UNKNOWN_QUERY_PARAMETER = 456;

/**
 * Values of the analytics emulation (analytics-evaluate.ts) as ClickHouse shows them on the wire: DateTime64 columns
 * read as "YYYY-MM-DD hh:mm:ss.mmm" (UTC), NULL in a condition as false, numbers and numeric text compared as numbers;
 * query parameters read by their declared type; LIKE patterns.
 */

/** A DateTime value (milliseconds since the epoch), kept apart from numbers so it prints as ClickHouse prints it. */
export interface DateTimeValue {
  dateTime: number;
}
export type Value = string | number | boolean | null | DateTimeValue | Record<string, unknown> | unknown[];
export type Row = Record<string, Value>;

export const dateTime = (millis: number): DateTimeValue => ({ dateTime: millis });
export const isDateTime = (v: unknown): v is DateTimeValue =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "dateTime" in v && Object.keys(v).length === 1;

export function formatDateTime(millis: number): string {
  return new Date(millis).toISOString().replace("T", " ").replace("Z", "");
}

export function parseDateTime(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?)?Z?$/.exec(text.trim());
  if (!m) return null;
  const millis = Date.UTC(
    +m[1]!,
    +m[2]! - 1,
    +m[3]!,
    +(m[4] ?? 0),
    +(m[5] ?? 0),
    +(m[6] ?? 0),
    +(m[7] ?? "0").padEnd(3, "0").slice(0, 3),
  );
  return Number.isNaN(millis) ? null : millis;
}

/** Out of the engine: DateTime as text, the rest as JSON already is. */
export function output(value: Value): unknown {
  return isDateTime(value) ? formatDateTime(value.dateTime) : value;
}

export function paramValue(name: string, type: string, params: Record<string, unknown>): Value {
  if (!Object.hasOwn(params, name))
    throw new AnalyticsQueryError(`Substitution \`${name}\` is not set`, UNKNOWN_QUERY_PARAMETER);
  const raw = params[name];
  const nullable = /^Nullable\(/i.test(type);
  const base = type
    .replace(/^(Nullable|LowCardinality)\((.*)\)$/i, "$2")
    .replace(/^(Nullable|LowCardinality)\((.*)\)$/i, "$2");
  if (raw === null || raw === undefined) {
    if (nullable) return null;
    throw new AnalyticsQueryError(`Cannot parse NULL as ${type} for query parameter '${name}'`);
  }
  if (/^(U?Int\d*|Float\d*|Decimal.*)$/i.test(base)) {
    const n = Number(raw);
    if (!Number.isFinite(n))
      throw new AnalyticsQueryError(`Cannot parse input: expected ${base} for query parameter '${name}'`);
    return n;
  }
  if (/^Bool(ean)?$/i.test(base)) return raw === true || raw === "true" || raw === 1 || raw === "1";
  if (/^(Date|DateTime)(64)?\b/i.test(base)) {
    const millis = typeof raw === "number" ? raw * 1000 : parseDateTime(String(raw));
    if (millis === null)
      throw new AnalyticsQueryError(`Cannot parse input: expected ${base} for query parameter '${name}'`);
    return dateTime(millis);
  }
  return typeof raw === "string" ? raw : JSON.stringify(raw);
}

export function truthy(value: Value): boolean {
  if (value === null) return false;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "boolean") return value;
  if (typeof value === "string") return value !== "" && value !== "0";
  return true;
}

/** Comparable form: DateTimes and date-like text as milliseconds, numeric text as numbers when the other side is one. */
function comparable(a: Value, b: Value): [number | string | boolean, number | string | boolean] | null {
  if (a === null || b === null) return null;
  const asMillis = (v: Value) =>
    isDateTime(v) ? v.dateTime : typeof v === "string" ? parseDateTime(v) : typeof v === "number" ? v * 1000 : null;
  if (isDateTime(a) || isDateTime(b)) {
    const x = asMillis(a);
    const y = asMillis(b);
    if (x === null || y === null)
      throw new AnalyticsQueryError("Cannot compare a DateTime with a value that is not one");
    return [x, y];
  }
  const scalar = (v: Value) => (typeof v === "object" ? JSON.stringify(v) : v);
  const x = scalar(a);
  const y = scalar(b);
  if (typeof x === "number" && typeof y === "string" && y.trim() !== "" && Number.isFinite(Number(y)))
    return [x, Number(y)];
  if (typeof y === "number" && typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x)))
    return [Number(x), y];
  if (typeof x === "boolean" && typeof y === "number") return [x ? 1 : 0, y];
  if (typeof y === "boolean" && typeof x === "number") return [x, y ? 1 : 0];
  return [x, y];
}

export function compare(a: Value, b: Value): number | null {
  const pair = comparable(a, b);
  if (!pair) return null;
  const [x, y] = pair;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * A LIKE pattern (`%` any run, `_` any one character, `\\` escaping either) as a wildcard matcher: linear in the
 * text for a given pattern, and counting its steps, where the regular expression it once was could backtrack.
 */
export function likePattern(pattern: string): Wildcard {
  const parts: WildcardPart[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\" && i + 1 < pattern.length) parts.push({ kind: "char", char: pattern[++i]! });
    else if (c === "%") parts.push({ kind: "run" });
    else if (c === "_") parts.push({ kind: "one" });
    else parts.push({ kind: "char", char: c });
  }
  return compileWildcard(parts);
}
