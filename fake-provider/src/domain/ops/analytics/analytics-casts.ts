import { AnalyticsQueryError, CH } from "./analytics-errors.ts";
import { formatDateTime, isDateTime, output, parseDateTime, dateTime, type Value } from "./analytics-values.ts";

/**
 * ClickHouse's conversions, as the real service's own queries use them on JSON sub-fields
 * (`NULLIF(CAST(data.rule_id, 'Nullable(String)'), '')`): CAST to String, the integer and float types, Bool and
 * DateTime, each optionally Nullable(…) or LowCardinality(…). NULL casts to NULL only into a Nullable type; into
 * any other it is ClickHouse's refusal, not a silent default. Other target types are refused as unknown to this
 * emulation rather than guessed.
 */

const INTEGER_BOUNDS: Record<string, [bigint, bigint]> = {
  int8: [-(2n ** 7n), 2n ** 7n - 1n],
  int16: [-(2n ** 15n), 2n ** 15n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0n, 2n ** 8n - 1n],
  uint16: [0n, 2n ** 16n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** A type name with its Nullable / LowCardinality wrappers taken off. */
function unwrap(type: string): { base: string; nullable: boolean } {
  let base = type.trim();
  let nullable = false;
  for (;;) {
    const m = /^(Nullable|LowCardinality)\s*\((.*)\)$/i.exec(base);
    if (!m) return { base, nullable };
    if (m[1]!.toLowerCase() === "nullable") nullable = true;
    base = m[2]!.trim();
  }
}

/** A value's text as ClickHouse writes it when casting to String. */
function asText(value: Exclude<Value, null>): string {
  if (isDateTime(value)) return formatDateTime(value.dateTime);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "object") return JSON.stringify(output(value));
  return String(value);
}

function cannotParse(value: Exclude<Value, null>, base: string): never {
  throw new AnalyticsQueryError(`Cannot parse string '${asText(value)}' as ${base}`, CH.CANNOT_PARSE_TEXT);
}

function toInteger(value: Exclude<Value, null>, base: string): number | string {
  const [min, max] = INTEGER_BOUNDS[base.toLowerCase()]!;
  let n: bigint;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) cannotParse(value, base);
    n = BigInt(Math.trunc(value));
  } else if (typeof value === "boolean") n = value ? 1n : 0n;
  else if (typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value)) n = BigInt(value.trim());
  else return cannotParse(value, base);
  // Out of range wraps around, as ClickHouse's CAST of a number does (it does not check).
  const span = max - min + 1n;
  const wrapped = ((((n - min) % span) + span) % span) + min;
  // 64-bit integers print quoted in JSONEachRow (analytics-values.ts).
  return /64$/.test(base) ? wrapped.toString() : Number(wrapped);
}

/** CAST(value, 'Type') / CAST(value AS Type). */
export function castValue(value: Value, type: string): Value {
  const { base, nullable } = unwrap(type);
  const lower = base.toLowerCase();
  const known =
    lower === "string" ||
    Object.hasOwn(INTEGER_BOUNDS, lower) ||
    lower === "float32" ||
    lower === "float64" ||
    lower === "bool" ||
    /^datetime(64)?(\(.*\))?$/.test(lower);
  if (!known) {
    throw new AnalyticsQueryError(
      `authsim's analytics emulation does not cast to ${type} (String, Int*, UInt*, Float*, Bool, DateTime only)`,
      CH.UNKNOWN_TYPE,
    );
  }
  if (value === null) {
    if (nullable) return null;
    throw new AnalyticsQueryError(
      `Cannot convert NULL value to non-Nullable type ${type}`,
      CH.CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN,
    );
  }
  if (lower === "string") return asText(value);
  if (Object.hasOwn(INTEGER_BOUNDS, lower)) return toInteger(value, base);
  if (lower === "float32" || lower === "float64") {
    const n = typeof value === "boolean" ? Number(value) : typeof value === "string" ? Number(value.trim()) : value;
    if (typeof n !== "number" || Number.isNaN(n) || (typeof value === "string" && value.trim() === ""))
      return cannotParse(value, base);
    return n;
  }
  if (lower === "bool") {
    if (typeof value === "boolean") return value;
    if (typeof value === "number") return value !== 0;
    if (typeof value === "string" && /^(true|false|1|0)$/i.test(value.trim())) return /^(true|1)$/i.test(value.trim());
    return cannotParse(value, base);
  }
  if (isDateTime(value)) return value;
  const millis = typeof value === "number" ? value * 1000 : typeof value === "string" ? parseDateTime(value) : null;
  return millis === null ? cannotParse(value, base) : dateTime(millis);
}

/** NULLIF(a, b): NULL when a equals b; a otherwise, also when either is NULL (a = NULL is not true). */
export function nullIf(a: Value, b: Value, equal: (x: Value, y: Value) => number | null): Value {
  if (a === null) return null;
  return equal(a, b) === 0 ? null : a;
}

/** toStartOfHour(t): the hour t falls in (UTC, the server's time zone); NULL stays NULL. */
export function startOfHour(value: Value): Value {
  if (value === null) return null;
  const millis = isDateTime(value) ? value.dateTime : typeof value === "string" ? parseDateTime(value) : null;
  if (millis === null)
    throw new AnalyticsQueryError("Illegal type of argument of function toStartOfHour", CH.ILLEGAL_TYPE_OF_ARGUMENT);
  return dateTime(millis - (((millis % 3_600_000) + 3_600_000) % 3_600_000));
}
