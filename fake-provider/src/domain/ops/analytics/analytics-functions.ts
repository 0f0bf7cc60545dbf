import type { QueryBudget } from "./analytics-budget.ts";
import { castValue, nullIf, startOfHour } from "./analytics-casts.ts";
import { CLICKHOUSE_USER } from "./analytics-catalog.ts";
import { AnalyticsQueryError, CH } from "./analytics-errors.ts";
import type { QueryEnvironment } from "./analytics-environment.ts";
import {
  compare,
  dateTime,
  formatDateTime,
  isDateTime,
  output,
  parseDateTime,
  truthy,
  type Value,
} from "./analytics-values.ts";

/**
 * The analytics dialect's scalar functions (analytics-expressions.ts evaluates their arguments first and lists them),
 * with ClickHouse's answers: its wording for a wrong number of arguments, UNKNOWN_FUNCTION for anything else.
 */
export function callScalar(name: string, values: Value[], env: QueryEnvironment, budget: QueryBudget): Value {
  const lower = name.toLowerCase();
  const arity = (n: number) => {
    if (values.length !== n)
      throw new AnalyticsQueryError(
        `Number of arguments for function ${name} doesn't match: passed ${values.length}, should be ${n}`,
      );
  };
  switch (lower) {
    case "now":
    case "now64":
      return dateTime(env.nowMillis);
    case "today":
      return dateTime(env.nowMillis - (env.nowMillis % 86_400_000));
    case "todate": {
      arity(1);
      const v = values[0]!;
      const millis = isDateTime(v) ? v.dateTime : typeof v === "string" ? parseDateTime(v) : null;
      if (millis === null) return null;
      return formatDateTime(millis - (millis % 86_400_000)).slice(0, 10);
    }
    case "todatetime":
    case "todatetime64": {
      const v = values[0] ?? null;
      const millis = isDateTime(v)
        ? v.dateTime
        : typeof v === "string"
          ? parseDateTime(v)
          : typeof v === "number"
            ? v * 1000
            : null;
      return millis === null ? null : dateTime(millis);
    }
    case "tostring":
      arity(1);
      return values[0] === null
        ? null
        : typeof output(values[0]!) === "object"
          ? JSON.stringify(output(values[0]!))
          : String(output(values[0]!));
    case "lower":
    case "upper":
      arity(1);
      return values[0] === null
        ? null
        : lower === "lower"
          ? String(values[0]).toLowerCase()
          : String(values[0]).toUpperCase();
    case "length":
      arity(1);
      return values[0] === null
        ? null
        : Array.isArray(values[0])
          ? values[0].length
          : String(output(values[0]!)).length;
    case "coalesce":
      return values.find((v) => v !== null) ?? null;
    case "ifnull":
      arity(2);
      return values[0] ?? values[1]!;
    case "nullif":
      arity(2);
      return nullIf(values[0]!, values[1]!, compare);
    case "cast": {
      arity(2);
      const type = values[1];
      if (typeof type !== "string")
        throw new AnalyticsQueryError(
          "Second argument to CAST must be a constant string describing type",
          CH.ILLEGAL_TYPE_OF_ARGUMENT,
        );
      return castValue(values[0]!, type);
    }
    case "tostartofhour":
      arity(1);
      return startOfHour(values[0]!);
    case "if":
      arity(3);
      return truthy(values[0]!) ? values[1]! : values[2]!;
    case "getsetting": {
      arity(1);
      const key = String(values[0]);
      if (!Object.hasOwn(env.settings, key)) throw new AnalyticsQueryError(`Unknown setting '${key}'`);
      return env.settings[key]!;
    }
    case "currentdatabase":
      return "default";
    case "tojsonstring":
      arity(1);
      return JSON.stringify(asClickHouseJson(output(values[0]!)));
    case "currentuser":
    case "user":
      return CLICKHOUSE_USER;
    case "currentroles":
    case "enabledroles":
      return [];
    case "sleep":
    case "sleepeachrow": {
      arity(1);
      const seconds = Number(values[0]);
      if (!Number.isFinite(seconds) || seconds < 0)
        throw new AnalyticsQueryError(`Illegal argument of function ${name}`, CH.ILLEGAL_TYPE_OF_ARGUMENT);
      if (seconds > 3)
        throw new AnalyticsQueryError(
          `The maximum sleep time is 3000000 microseconds. Requested: ${Math.round(seconds * 1e6)}`,
          CH.TOO_SLOW,
        );
      budget.sleep(seconds * 1000);
      return 0;
    }
    default:
      throw new AnalyticsQueryError(`Unknown function ${name}`, CH.UNKNOWN_FUNCTION);
  }
}

/**
 * A value as ClickHouse's JSON type holds it, for toJSONString: an object's paths sorted, and a path whose value is
 * NULL not stored at all (the type keeps no NULL paths).
 */
function asClickHouseJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asClickHouseJson);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== null)
      .map((key) => [key, asClickHouseJson((value as Record<string, unknown>)[key])]),
  );
}
