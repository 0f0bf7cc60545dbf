import { parseSelect, SqlSyntaxError, type Expr, type SelectQuery } from "./analytics-sql.ts";

/**
 * Runs a parsed analytics query (analytics-sql.ts) over rows in memory, with ClickHouse's answers where they show on
 * the wire: DateTime64 columns read as "YYYY-MM-DD hh:mm:ss.mmm" (UTC), count() and other 64-bit integers as strings
 * (JSONEachRow quotes them), NULL in a WHERE as false. Functions: the aggregates count, uniq, uniqExact, min, max, sum,
 * avg; now, today, toDate, toDateTime, toString, lower, upper, length, coalesce, ifNull, if, getSetting,
 * currentDatabase. Anything else is an error, as a function ClickHouse does not know is.
 */

/** A DateTime value (milliseconds since the epoch), kept apart from numbers so it prints as ClickHouse prints it. */
interface DateTimeValue {
  dateTime: number;
}
type Value = string | number | boolean | null | DateTimeValue | Record<string, unknown> | unknown[];
export type Row = Record<string, Value>;

export interface QueryEnvironment {
  /** Table name → its rows (already limited to what the caller may read). */
  tables: Record<string, Row[]>;
  params: Record<string, unknown>;
  nowMillis: number;
  settings: Record<string, string>;
  maxResultRows: number;
}

export class AnalyticsQueryError extends Error {}

export const dateTime = (millis: number): DateTimeValue => ({ dateTime: millis });
const isDateTime = (v: unknown): v is DateTimeValue => typeof v === "object" && v !== null && !Array.isArray(v) && "dateTime" in v && Object.keys(v).length === 1;

const AGGREGATES = new Set(["count", "uniq", "uniqexact", "min", "max", "sum", "avg"]);

function formatDateTime(millis: number): string {
  return new Date(millis).toISOString().replace("T", " ").replace("Z", "");
}

function parseDateTime(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?)?Z?$/.exec(text.trim());
  if (!m) return null;
  const millis = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), +((m[7] ?? "0").padEnd(3, "0").slice(0, 3)));
  return Number.isNaN(millis) ? null : millis;
}

/** Out of the engine: DateTime as text, the rest as JSON already is. */
function output(value: Value): unknown {
  return isDateTime(value) ? formatDateTime(value.dateTime) : value;
}

function paramValue(name: string, type: string, params: Record<string, unknown>): Value {
  if (!Object.hasOwn(params, name)) throw new AnalyticsQueryError(`Substitution \`${name}\` is not set`);
  const raw = params[name];
  const nullable = /^Nullable\(/i.test(type);
  const base = type.replace(/^(Nullable|LowCardinality)\((.*)\)$/i, "$2").replace(/^(Nullable|LowCardinality)\((.*)\)$/i, "$2");
  if (raw === null || raw === undefined) {
    if (nullable) return null;
    throw new AnalyticsQueryError(`Cannot parse NULL as ${type} for query parameter '${name}'`);
  }
  if (/^(U?Int\d*|Float\d*|Decimal.*)$/i.test(base)) {
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new AnalyticsQueryError(`Cannot parse input: expected ${base} for query parameter '${name}'`);
    return n;
  }
  if (/^Bool(ean)?$/i.test(base)) return raw === true || raw === "true" || raw === 1 || raw === "1";
  if (/^(Date|DateTime)(64)?\b/i.test(base)) {
    const millis = typeof raw === "number" ? raw * 1000 : parseDateTime(String(raw));
    if (millis === null) throw new AnalyticsQueryError(`Cannot parse input: expected ${base} for query parameter '${name}'`);
    return dateTime(millis);
  }
  return typeof raw === "string" ? raw : JSON.stringify(raw);
}

function truthy(value: Value): boolean {
  if (value === null) return false;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "boolean") return value;
  if (typeof value === "string") return value !== "" && value !== "0";
  return true;
}

/** Comparable form: DateTimes and date-like text as milliseconds, numeric text as numbers when the other side is one. */
function comparable(a: Value, b: Value): [number | string | boolean, number | string | boolean] | null {
  if (a === null || b === null) return null;
  const asMillis = (v: Value) => (isDateTime(v) ? v.dateTime : typeof v === "string" ? parseDateTime(v) : typeof v === "number" ? v * 1000 : null);
  if (isDateTime(a) || isDateTime(b)) {
    const x = asMillis(a);
    const y = asMillis(b);
    if (x === null || y === null) throw new AnalyticsQueryError("Cannot compare a DateTime with a value that is not one");
    return [x, y];
  }
  const scalar = (v: Value) => (typeof v === "object" ? JSON.stringify(v) : v);
  const x = scalar(a);
  const y = scalar(b);
  if (typeof x === "number" && typeof y === "string" && y.trim() !== "" && Number.isFinite(Number(y))) return [x, Number(y)];
  if (typeof y === "number" && typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x))) return [Number(x), y];
  if (typeof x === "boolean" && typeof y === "number") return [x ? 1 : 0, y];
  if (typeof y === "boolean" && typeof x === "number") return [x, y ? 1 : 0];
  return [x, y];
}

function compare(a: Value, b: Value): number | null {
  const pair = comparable(a, b);
  if (!pair) return null;
  const [x, y] = pair;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** SQL LIKE (% and _), matched by dynamic programming: linear in pattern × text, whatever the pattern. */
function like(text: string, pattern: string): boolean {
  let row = new Array<boolean>(text.length + 1).fill(false);
  row[0] = true;
  for (let p = 0; p < pattern.length; p++) {
    let c = pattern[p]!;
    const escaped = c === "\\" && p + 1 < pattern.length;
    if (escaped) c = pattern[++p]!;
    const next = new Array<boolean>(text.length + 1).fill(false);
    if (!escaped && c === "%") {
      next[0] = row[0]!;
      for (let t = 1; t <= text.length; t++) next[t] = row[t]! || next[t - 1]!;
    } else {
      for (let t = 1; t <= text.length; t++) next[t] = row[t - 1]! && ((!escaped && c === "_") || text[t - 1] === c);
    }
    row = next;
  }
  return row[text.length]!;
}

function hasAggregate(expr: Expr): boolean {
  switch (expr.kind) {
    case "call":
      return AGGREGATES.has(expr.name.toLowerCase()) || expr.args.some(hasAggregate);
    case "unary":
      return hasAggregate(expr.operand);
    case "binary":
      return hasAggregate(expr.left) || hasAggregate(expr.right);
    case "in":
      return hasAggregate(expr.operand) || expr.list.some(hasAggregate);
    case "isNull":
      return hasAggregate(expr.operand);
    default:
      return false;
  }
}

class Evaluator {
  constructor(private readonly env: QueryEnvironment) {}

  /** `group` is the rows an aggregate reads; `row` the one the plain columns read (a group's first). */
  value(expr: Expr, row: Row, group: Row[] | null): Value {
    switch (expr.kind) {
      case "literal":
        return expr.value;
      case "param":
        return paramValue(expr.name, expr.type, this.env.params);
      case "star":
        throw new AnalyticsQueryError("* is only allowed in count(*) or alone after SELECT");
      case "column":
        return this.column(expr.path, row);
      case "unary": {
        const v = this.value(expr.operand, row, group);
        if (expr.op === "NOT") return v === null ? null : truthy(v) ? 0 : 1;
        if (typeof v !== "number") throw new AnalyticsQueryError("Illegal type of argument of function negate");
        return -v;
      }
      case "binary":
        return this.binary(expr, row, group);
      case "in": {
        const v = this.value(expr.operand, row, group);
        if (v === null) return null;
        const found = expr.list.some((item) => compare(v, this.value(item, row, group)) === 0);
        return found !== expr.negated ? 1 : 0;
      }
      case "isNull": {
        const isNull = this.value(expr.operand, row, group) === null;
        return isNull !== expr.negated ? 1 : 0;
      }
      case "call":
        return this.call(expr.name, expr.args, row, group);
    }
  }

  private column(path: string[], row: Row): Value {
    const [head, ...rest] = path;
    if (!head || !Object.hasOwn(row, head)) throw new AnalyticsQueryError(`Unknown expression identifier '${path.join(".")}'`);
    let value: unknown = row[head];
    for (const key of rest) {
      // JSON subcolumns: a missing key reads NULL, as ClickHouse's JSON type answers.
      value = value !== null && typeof value === "object" && !Array.isArray(value) && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : null;
    }
    return value as Value;
  }

  private binary(expr: Extract<Expr, { kind: "binary" }>, row: Row, group: Row[] | null): Value {
    if (expr.op === "AND" || expr.op === "OR") {
      const left = this.value(expr.left, row, group);
      if (expr.op === "AND" && left !== null && !truthy(left)) return 0;
      if (expr.op === "OR" && left !== null && truthy(left)) return 1;
      const right = this.value(expr.right, row, group);
      if (left === null || right === null) return expr.op === "AND" && right !== null && !truthy(right) ? 0 : expr.op === "OR" && right !== null && truthy(right) ? 1 : null;
      return truthy(right) ? 1 : 0;
    }
    const left = this.value(expr.left, row, group);
    const right = this.value(expr.right, row, group);
    if (expr.op === "LIKE") {
      if (left === null || right === null) return null;
      return like(String(output(left)), String(right)) ? 1 : 0;
    }
    if (["+", "-", "*", "/"].includes(expr.op)) {
      if (left === null || right === null) return null;
      if (isDateTime(left) && typeof right === "number" && (expr.op === "+" || expr.op === "-")) {
        return dateTime(left.dateTime + (expr.op === "+" ? 1 : -1) * right * 1000);
      }
      if (typeof left !== "number" || typeof right !== "number") throw new AnalyticsQueryError(`Illegal types of arguments of operator ${expr.op}`);
      return expr.op === "+" ? left + right : expr.op === "-" ? left - right : expr.op === "*" ? left * right : left / right;
    }
    const order = compare(left, right);
    if (order === null) return null;
    const results: Record<string, boolean> = { "=": order === 0, "!=": order !== 0, "<": order < 0, "<=": order <= 0, ">": order > 0, ">=": order >= 0 };
    return results[expr.op] ? 1 : 0;
  }

  private call(name: string, args: Expr[], row: Row, group: Row[] | null): Value {
    const lower = name.toLowerCase();
    if (AGGREGATES.has(lower)) {
      if (!group) throw new AnalyticsQueryError(`Aggregate function ${name} is found in WHERE or in a nested aggregate`);
      if (lower === "count") {
        // count() / count(*) count rows; count(x) counts rows where x is not NULL. 64-bit: quoted, as JSONEachRow prints it.
        const arg = args[0];
        const n = !arg || arg.kind === "star" ? group.length : group.filter((r) => this.value(arg, r, null) !== null).length;
        return String(n);
      }
      const arg = args[0];
      if (!arg || arg.kind === "star") throw new AnalyticsQueryError(`Number of arguments for function ${name} doesn't match: passed 0, should be 1`);
      const values = group.map((r) => this.value(arg, r, null)).filter((v) => v !== null);
      if (lower === "uniq" || lower === "uniqexact") return String(new Set(values.map((v) => JSON.stringify(output(v)))).size);
      if (lower === "min" || lower === "max") {
        if (values.length === 0) return null;
        return values.reduce((best, v) => ((compare(v, best) ?? 0) * (lower === "min" ? -1 : 1) > 0 ? v : best));
      }
      const numbers = values.map((v) => {
        if (typeof v !== "number") throw new AnalyticsQueryError(`Illegal type of argument for aggregate function ${name}`);
        return v;
      });
      const sum = numbers.reduce((a, b) => a + b, 0);
      return lower === "sum" ? sum : numbers.length === 0 ? Number.NaN : sum / numbers.length;
    }
    const values = args.map((arg) => this.value(arg, row, group));
    const arity = (n: number) => {
      if (values.length !== n) throw new AnalyticsQueryError(`Number of arguments for function ${name} doesn't match: passed ${values.length}, should be ${n}`);
    };
    switch (lower) {
      case "now":
      case "now64":
        return dateTime(this.env.nowMillis);
      case "today":
        return dateTime(this.env.nowMillis - (this.env.nowMillis % 86_400_000));
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
        const millis = isDateTime(v) ? v.dateTime : typeof v === "string" ? parseDateTime(v) : typeof v === "number" ? v * 1000 : null;
        return millis === null ? null : dateTime(millis);
      }
      case "tostring":
        arity(1);
        return values[0] === null ? null : typeof output(values[0]!) === "object" ? JSON.stringify(output(values[0]!)) : String(output(values[0]!));
      case "lower":
      case "upper":
        arity(1);
        return values[0] === null ? null : lower === "lower" ? String(values[0]).toLowerCase() : String(values[0]).toUpperCase();
      case "length":
        arity(1);
        return values[0] === null ? null : Array.isArray(values[0]) ? values[0].length : String(output(values[0]!)).length;
      case "coalesce":
        return values.find((v) => v !== null) ?? null;
      case "ifnull":
        arity(2);
        return values[0] ?? values[1]!;
      case "if":
        arity(3);
        return truthy(values[0]!) ? values[1]! : values[2]!;
      case "getsetting": {
        arity(1);
        const key = String(values[0]);
        if (!Object.hasOwn(this.env.settings, key)) throw new AnalyticsQueryError(`Unknown setting '${key}'`);
        return this.env.settings[key]!;
      }
      case "currentdatabase":
        return "default";
      default:
        throw new AnalyticsQueryError(`Unknown function ${name}`);
    }
  }
}

function rowsOf(query: SelectQuery, env: QueryEnvironment): Row[] {
  if (!query.from) return [{}];
  const { database, table } = query.from;
  const name = database && database !== "default" ? `${database}.${table}` : table;
  const rows = Object.hasOwn(env.tables, name) ? env.tables[name] : undefined;
  if (!rows) throw new AnalyticsQueryError(`Unknown table expression identifier '${name}' (authsim's analytics emulation has: ${Object.keys(env.tables).join(", ")})`);
  return rows;
}

/** Runs `text` with `env`: the JSONEachRow rows ClickHouse would answer, or an AnalyticsQueryError / SqlSyntaxError. */
export function runAnalyticsQuery(text: string, env: QueryEnvironment): Record<string, unknown>[] {
  const query = parseSelect(text);
  const evaluator = new Evaluator(env);
  let rows = rowsOf(query, env);
  if (query.where) {
    if (hasAggregate(query.where)) throw new AnalyticsQueryError("Aggregate function is found in WHERE");
    const where = query.where;
    rows = rows.filter((row) => truthy(evaluator.value(where, row, null)));
  }
  const items = query.items;
  const aggregated = query.groupBy.length > 0 || (items !== "*" && items.some((item) => hasAggregate(item.expr)));
  if (aggregated && items === "*") throw new AnalyticsQueryError("SELECT * with GROUP BY is not supported");

  // Each result row with the context its ORDER BY reads: a source row, or a group and its first row.
  let contexts: { row: Row; group: Row[] | null }[];
  if (aggregated) {
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const key = JSON.stringify(query.groupBy.map((expr) => output(evaluator.value(expr, row, null))));
      const members = groups.get(key);
      if (members) members.push(row);
      else groups.set(key, [row]);
    }
    // Without GROUP BY, aggregates read all rows as one group, even none.
    if (query.groupBy.length === 0 && groups.size === 0) groups.set("[]", []);
    contexts = [...groups.values()].map((group) => ({ row: group[0] ?? {}, group }));
  } else {
    contexts = rows.map((row) => ({ row, group: null }));
  }

  const project = (context: { row: Row; group: Row[] | null }): Record<string, unknown> => {
    if (items === "*") return Object.fromEntries(Object.entries(context.row).map(([k, v]) => [k, output(v)]));
    const out: Record<string, unknown> = {};
    for (const item of items) out[item.name] = output(evaluator.value(item.expr, context.row, context.group));
    return out;
  };
  let results = contexts.map((context) => ({ context, out: project(context) }));

  if (query.orderBy.length > 0) {
    const keyOf = (entry: (typeof results)[number], expr: Expr): Value => {
      // An output column's alias may be ordered by, as in ClickHouse.
      if (expr.kind === "column" && expr.path.length === 1 && items !== "*" && items.some((i) => i.name === expr.path[0]) && !Object.hasOwn(entry.context.row, expr.path[0]!)) {
        return entry.out[expr.path[0]!] as Value;
      }
      return evaluator.value(expr, entry.context.row, entry.context.group);
    };
    const keyed = results.map((entry) => ({ entry, keys: query.orderBy.map((o) => keyOf(entry, o.expr)) }));
    keyed.sort((a, b) => {
      for (let i = 0; i < query.orderBy.length; i++) {
        const x = a.keys[i]!;
        const y = b.keys[i]!;
        // NULLs last, in either direction (ClickHouse's default).
        if (x === null || y === null) {
          if (x === y) continue;
          return x === null ? 1 : -1;
        }
        const order = compare(x, y) ?? 0;
        if (order !== 0) return query.orderBy[i]!.descending ? -order : order;
      }
      return 0;
    });
    results = keyed.map((k) => k.entry);
  }
  const limited = results.slice(query.offset, query.limit === null ? undefined : query.offset + query.limit);
  if (limited.length > env.maxResultRows) throw new AnalyticsQueryError(`Limit for result exceeded, max rows: ${env.maxResultRows}`);
  return limited.map((entry) => entry.out);
}

export { SqlSyntaxError };
