import { QueryBudget } from "./analytics-budget.ts";
import { analyzeQuery } from "./analytics-analyze.ts";
import { CLICKHOUSE_USER, schemaOf } from "./analytics-catalog.ts";
import { AnalyticsQueryError, CH, readableQuantity, SqlSyntaxError } from "./analytics-errors.ts";
import { tokenizeYielding } from "./analytics-sql-tokens.ts";
import {
  checkQuerySize,
  childrenOf,
  type Expr,
  type QueryStatement,
  type SelectQuery,
  type TableRef,
  type UnionQuery,
} from "./analytics-sql-ast.ts";
import { parseTokens } from "./analytics-sql.ts";
import { otherStatement, receivedText } from "./analytics-statements.ts";
import type { Wildcard } from "@authsim/sdk/runtime";
import {
  compare,
  dateTime,
  formatDateTime,
  isDateTime,
  likePattern,
  output,
  paramValue,
  parseDateTime,
  truthy,
  type Row,
  type Value,
} from "./analytics-values.ts";

/**
 * Runs a parsed analytics query (analytics-sql.ts) over rows in memory, with ClickHouse's answers where they show on
 * the wire (analytics-values.ts): count() and other 64-bit integers as strings (JSONEachRow quotes them), NULL in a
 * WHERE as false. Functions: the aggregates count, uniq, uniqExact, min, max, sum, avg; now, today, toDate,
 * toDateTime, toString, lower, upper, length, coalesce, ifNull, if, getSetting, currentDatabase. Anything else is an
 * error, as a function ClickHouse does not know is.
 *
 * Evaluation is asynchronous and counted (analytics-budget.ts): it yields between rows and groups so the server goes on
 * serving, and stops with ClickHouse's timeout once the query's time is spent. A group's aggregates are computed before
 * its row is projected, a row at a time between checkpoints, so no aggregate over many rows runs in one stretch.
 */

export { AnalyticsQueryError, SqlSyntaxError, dateTime, type Row };

export interface QueryEnvironment {
  /** Table name → its rows (already limited to what the caller may read). */
  tables: Record<string, Row[]>;
  params: Record<string, unknown>;
  nowMillis: number;
  settings: Record<string, string>;
  maxResultRows: number;
}

const AGGREGATES = new Set(["count", "uniq", "uniqexact", "min", "max", "sum", "avg"]);
type Call = Extract<Expr, { kind: "call" }>;
const isAggregate = (expr: Expr): boolean => expr.kind === "call" && AGGREGATES.has(expr.name.toLowerCase());

/** The aggregate calls in an expression, outermost only (one inside another's argument is refused when evaluated). */
function aggregatesIn(root: Expr): Call[] {
  const found: Call[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const expr = stack.pop()!;
    if (isAggregate(expr)) found.push(expr as Call);
    else stack.push(...childrenOf(expr));
  }
  return found;
}

/**
 * An IN list of string literals only, or of number literals only, as a set: a value of the same type is in the list
 * exactly when the set has it (compare() orders two strings, or two numbers, as they are), so a long list costs one
 * lookup per row instead of a comparison per item, as ClickHouse's set does. Made once per list.
 */
const literalSets = new WeakMap<Expr[], { type: "string" | "number"; values: Set<string | number> } | null>();
function literalSet(list: Expr[]): { type: "string" | "number"; values: Set<string | number> } | null {
  let set = literalSets.get(list);
  if (set === undefined) {
    const first = list[0];
    const type =
      first?.kind === "literal" && (typeof first.value === "string" || typeof first.value === "number")
        ? typeof first.value
        : null;
    const same = type !== null && list.every((item) => item.kind === "literal" && typeof item.value === type);
    set = same
      ? {
          type: type as "string" | "number",
          values: new Set(list.map((item) => (item as { value: string | number }).value)),
        }
      : null;
    literalSets.set(list, set);
  }
  return set;
}

/** Characters a LIKE reads per unit of work (a unit is about one expression node's evaluation). */
const LIKE_STEPS_PER_UNIT = 8;
/** Distinct LIKE patterns kept compiled during one query (a column's values as patterns would otherwise pile up). */
const LIKE_CACHE_SIZE = 64;

class Evaluator {
  private readonly likes = new Map<string, Wildcard>();
  private readonly meter = (steps: number) => this.budget.charge(Math.ceil(steps / LIKE_STEPS_PER_UNIT));

  /** The element of each arrayJoin(…) call for the output row being projected. */
  joined = new Map<Expr, Value>();

  constructor(
    private readonly env: QueryEnvironment,
    private readonly budget: QueryBudget,
    /** The values of the query's subqueries (their first column), run before its rows. */
    private readonly subqueries: ReadonlyMap<UnionQuery, Value[]>,
  ) {}

  /** `aggregates`: the values of a group's aggregate calls; null where none may be read (WHERE, GROUP BY, an aggregate's argument). */
  value(expr: Expr, row: Row, aggregates: ReadonlyMap<Expr, Value> | null): Value {
    this.budget.charge(1);
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
        const v = this.value(expr.operand, row, aggregates);
        if (expr.op === "NOT") return v === null ? null : truthy(v) ? 0 : 1;
        if (typeof v !== "number") throw new AnalyticsQueryError("Illegal type of argument of function negate");
        return -v;
      }
      case "logical":
        return this.logical(expr, row, aggregates);
      case "binary":
        return this.binary(expr, row, aggregates);
      case "in": {
        const v = this.value(expr.operand, row, aggregates);
        if (v === null) return null;
        const literals = literalSet(expr.list);
        const found =
          literals !== null && typeof v === literals.type
            ? literals.values.has(v as string | number)
            : expr.list.some((item) =>
                item.kind === "subquery"
                  ? (this.subqueries.get(item.query) ?? []).some((w) => compare(v, w) === 0)
                  : compare(v, this.value(item, row, aggregates)) === 0,
              );
        return found !== expr.negated ? 1 : 0;
      }
      case "isNull": {
        const isNull = this.value(expr.operand, row, aggregates) === null;
        return isNull !== expr.negated ? 1 : 0;
      }
      case "array":
        return expr.items.map((item) => this.value(item, row, aggregates));
      case "subquery":
        return this.subqueries.get(expr.query)?.[0] ?? null;
      case "call":
        if (expr.name.toLowerCase() === "arrayjoin") {
          if (!this.joined.has(expr))
            throw new AnalyticsQueryError(
              "authsim's analytics emulation reads arrayJoin only as a SELECT column",
              CH.NOT_IMPLEMENTED,
            );
          return this.joined.get(expr)!;
        }
        if (isAggregate(expr)) {
          if (!aggregates?.has(expr))
            throw new AnalyticsQueryError(`Aggregate function ${expr.name} is found in WHERE or in a nested aggregate`);
          return aggregates.get(expr)!;
        }
        return this.call(expr.name, expr.args, row, aggregates);
    }
  }

  private column(path: string[], row: Row): Value {
    const [head, ...rest] = path;
    if (!head || !Object.hasOwn(row, head))
      throw new AnalyticsQueryError(`Unknown expression identifier '${path.join(".")}'`);
    let value: unknown = row[head];
    for (const key of rest) {
      // JSON subcolumns: a missing key reads NULL, as ClickHouse's JSON type answers.
      value =
        value !== null && typeof value === "object" && !Array.isArray(value) && Object.hasOwn(value, key)
          ? (value as Record<string, unknown>)[key]
          : null;
    }
    return value as Value;
  }

  /** AND / OR over any number of operands, left to right, stopping at the first that decides; NULL where none does and one is NULL. */
  private logical(
    expr: Extract<Expr, { kind: "logical" }>,
    row: Row,
    aggregates: ReadonlyMap<Expr, Value> | null,
  ): Value {
    const decisive = expr.op === "OR";
    let sawNull = false;
    for (const operand of expr.operands) {
      const v = this.value(operand, row, aggregates);
      if (v === null) sawNull = true;
      else if (truthy(v) === decisive) return decisive ? 1 : 0;
    }
    return sawNull ? null : decisive ? 0 : 1;
  }

  private binary(
    expr: Extract<Expr, { kind: "binary" }>,
    row: Row,
    aggregates: ReadonlyMap<Expr, Value> | null,
  ): Value {
    const left = this.value(expr.left, row, aggregates);
    const right = this.value(expr.right, row, aggregates);
    if (expr.op === "LIKE") {
      if (left === null || right === null) return null;
      return this.like(String(right)).matches(String(output(left)), this.meter) ? 1 : 0;
    }
    if (["+", "-", "*", "/"].includes(expr.op)) {
      if (left === null || right === null) return null;
      if (isDateTime(left) && typeof right === "number" && (expr.op === "+" || expr.op === "-")) {
        return dateTime(left.dateTime + (expr.op === "+" ? 1 : -1) * right * 1000);
      }
      if (typeof left !== "number" || typeof right !== "number")
        throw new AnalyticsQueryError(`Illegal types of arguments of operator ${expr.op}`);
      return expr.op === "+"
        ? left + right
        : expr.op === "-"
          ? left - right
          : expr.op === "*"
            ? left * right
            : left / right;
    }
    const order = compare(left, right);
    if (order === null) return null;
    const results: Record<string, boolean> = {
      "=": order === 0,
      "!=": order !== 0,
      "<": order < 0,
      "<=": order <= 0,
      ">": order > 0,
      ">=": order >= 0,
    };
    return results[expr.op] ? 1 : 0;
  }

  /** A LIKE pattern compiled once per query (a constant pattern is the same for every row). */
  private like(pattern: string): Wildcard {
    let compiled = this.likes.get(pattern);
    if (!compiled) {
      this.meter(pattern.length);
      if (this.likes.size >= LIKE_CACHE_SIZE) this.likes.clear();
      compiled = likePattern(pattern);
      this.likes.set(pattern, compiled);
    }
    return compiled;
  }

  /** An aggregate call's value over a group, a row at a time between the budget's checkpoints. */
  async aggregate(call: Call, group: readonly Row[]): Promise<Value> {
    const lower = call.name.toLowerCase();
    const arg = call.args[0];
    if (lower === "count" && (!arg || arg.kind === "star")) return String(group.length);
    if (!arg || arg.kind === "star")
      throw new AnalyticsQueryError(
        `Number of arguments for function ${call.name} doesn't match: passed 0, should be 1`,
      );
    const values: Value[] = [];
    for (const row of group) {
      await this.budget.checkpoint();
      const v = this.value(arg, row, null);
      if (v !== null) values.push(v);
    }
    // count(x) counts rows where x is not NULL. 64-bit: quoted, as JSONEachRow prints it.
    if (lower === "count") return String(values.length);
    if (lower === "uniq" || lower === "uniqexact")
      return String(new Set(values.map((v) => JSON.stringify(output(v)))).size);
    if (lower === "min" || lower === "max") {
      if (values.length === 0) return null;
      return values.reduce((best, v) => ((compare(v, best) ?? 0) * (lower === "min" ? -1 : 1) > 0 ? v : best));
    }
    const numbers = values.map((v) => {
      if (typeof v !== "number")
        throw new AnalyticsQueryError(`Illegal type of argument for aggregate function ${call.name}`);
      return v;
    });
    const sum = numbers.reduce((a, b) => a + b, 0);
    return lower === "sum" ? sum : numbers.length === 0 ? Number.NaN : sum / numbers.length;
  }

  private call(name: string, args: Expr[], row: Row, aggregates: ReadonlyMap<Expr, Value> | null): Value {
    const lower = name.toLowerCase();
    const values = args.map((arg) => this.value(arg, row, aggregates));
    const arity = (n: number) => {
      if (values.length !== n)
        throw new AnalyticsQueryError(
          `Number of arguments for function ${name} doesn't match: passed ${values.length}, should be ${n}`,
        );
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
        this.budget.sleep(seconds * 1000);
        return 0;
      }
      default:
        throw new AnalyticsQueryError(`Unknown function ${name}`, CH.UNKNOWN_FUNCTION);
    }
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

/** The columns `*` reads from a table (its schema's), or null to take the rows' own (a subquery's, numbers'). */
function starColumns(ref: TableRef | null): string[] | null {
  if (ref?.kind !== "table") return null;
  const schema = schemaOf(ref.database ?? "default", ref.table);
  return schema ? schema.columns.map(([name]) => name) : null;
}

/** Rows ClickHouse reads in one block (max_block_size): a result's size is checked a block at a time. */
const BLOCK_ROWS = 65_409;

/** Rows of a FROM: the project's tables, the system tables the emulation serves, numbers(n), a subquery's or CTE's. */
async function rowsOf(
  ref: TableRef | null,
  env: QueryEnvironment,
  budget: QueryBudget,
  ctes: ReadonlyMap<string, UnionQuery>,
): Promise<Iterable<Row>> {
  if (!ref) return [{}];
  if (ref.kind === "subquery") return (await runUnion(ref.query, env, budget, ctes)) as Row[];
  if (ref.kind === "function") {
    // Only numbers(…) gets here (analytics-analyze.ts refuses the others): generated as read, never held whole.
    const evaluator = new Evaluator(env, budget, new Map());
    const args = ref.args.map((arg) => evaluator.value(arg, {}, null));
    const [from, count] = args.length >= 2 ? [Number(args[0]), Number(args[1])] : [0, Number(args[0])];
    if (!Number.isInteger(from) || !Number.isInteger(count) || count < 0)
      throw new AnalyticsQueryError(
        "Table function 'numbers' requires non-negative integer arguments",
        CH.BAD_ARGUMENTS,
      );
    return (function* () {
      for (let i = 0; i < count; i++) yield { number: from + i };
    })();
  }
  if (ref.database === null && ctes.has(ref.table))
    return (await runUnion(ctes.get(ref.table)!, env, budget, ctes)) as Row[];
  const name = ref.database && ref.database !== "default" ? `${ref.database}.${ref.table}` : ref.table;
  const rows = Object.hasOwn(env.tables, name) ? env.tables[name] : undefined;
  if (!rows)
    throw new AnalyticsQueryError(
      `authsim's analytics emulation has no rows for ${name} (it serves: ${Object.keys(env.tables).join(", ")})`,
      CH.NOT_IMPLEMENTED,
    );
  return rows;
}

/** A parsed statement: rows answered at once (SHOW), or a query to run over the scope's text. */
export type ParsedAnalytics =
  { kind: "rows"; rows: Record<string, unknown>[] } | { kind: "query"; statement: QueryStatement; scope: string };

/**
 * Parses a query: SqlSyntaxError (ClickHouse's wording) for what the emulation cannot read, a statement's refusal
 * (analytics-statements.ts). Its text is read in slices between the budget's checkpoints (a query may be a quarter of
 * a megabyte); the parse after it is bounded in depth.
 */
export async function parseAnalyticsQuery(query: string, budget: QueryBudget): Promise<ParsedAnalytics> {
  checkQuerySize(query);
  const text = receivedText(query);
  const tokens = await tokenizeYielding(text, () => budget.checkpoint());
  await budget.checkpoint();
  const rows = otherStatement(text, tokens);
  if (rows) return { kind: "rows", rows };
  const statement = parseTokens(text, tokens);
  // ClickHouse quotes the query in its messages as it reads it: here, the text as sent, spaces folded.
  const scope = query.trim().replace(/;+$/, "").replace(/\s+/g, " ");
  return { kind: "query", statement, scope };
}

type Context = { row: Row; aggregates: ReadonlyMap<Expr, Value> | null };

/** Runs a parsed statement with `env`: the JSONEachRow rows ClickHouse would answer, or its refusal. */
export async function evaluateAnalyticsQuery(
  parsed: ParsedAnalytics,
  env: QueryEnvironment,
  budget: QueryBudget,
): Promise<Record<string, unknown>[]> {
  if (parsed.kind === "rows") return parsed.rows;
  const { statement, scope } = parsed;
  // readonly=1: no setting may be changed by the query.
  if (statement.settings.length > 0)
    throw new AnalyticsQueryError(`Cannot modify '${statement.settings[0]}' setting in readonly mode`, CH.READONLY);
  analyzeQuery(statement.query, scope);
  const rows = await runUnion(statement.query, env, budget, new Map());
  if (rows.length > env.maxResultRows)
    throw resultTooBig(
      env.maxResultRows,
      Math.min(rows.length, Math.ceil((env.maxResultRows + 1) / BLOCK_ROWS) * BLOCK_ROWS),
    );
  return rows;
}

/** ClickHouse's refusal of a result over max_result_rows, checked a block at a time: `counted` to the block's end. */
function resultTooBig(maxRows: number, counted: number): AnalyticsQueryError {
  return new AnalyticsQueryError(
    `Limit for result exceeded, max rows: ${readableQuantity(maxRows)}, current rows: ${readableQuantity(counted)}`,
    CH.TOO_MANY_ROWS_OR_BYTES,
  );
}

const hasArrayJoin = (root: Expr): boolean => {
  const stack = [root];
  while (stack.length > 0) {
    const expr = stack.pop()!;
    if (expr.kind === "call" && expr.name.toLowerCase() === "arrayjoin") return true;
    stack.push(...childrenOf(expr));
  }
  return false;
};

/** SELECTs joined by UNION ALL: their rows one after the other. */
async function runUnion(
  query: UnionQuery,
  env: QueryEnvironment,
  budget: QueryBudget,
  outer: ReadonlyMap<string, UnionQuery>,
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (const select of query.selects) {
    const ctes = new Map(outer);
    for (const cte of select.with) ctes.set(cte.name, cte.query);
    for (const row of await runSelect(select, env, budget, ctes)) rows.push(row);
  }
  return rows;
}

/** The subqueries an expression holds as values (not those inside them): each run once, before the rows. */
async function subqueryValues(
  select: SelectQuery,
  env: QueryEnvironment,
  budget: QueryBudget,
  ctes: ReadonlyMap<string, UnionQuery>,
): Promise<Map<UnionQuery, Value[]>> {
  const values = new Map<UnionQuery, Value[]>();
  const stack = [
    ...(select.items === "*" ? [] : select.items.map((i) => i.expr)),
    ...(select.where ? [select.where] : []),
    ...select.groupBy,
    ...select.orderBy.map((o) => o.expr),
  ];
  while (stack.length > 0) {
    const expr = stack.pop()!;
    if (expr.kind === "subquery") {
      const rows = await runUnion(expr.query, env, budget, ctes);
      values.set(
        expr.query,
        rows.map((row) => (Object.values(row)[0] ?? null) as Value),
      );
    } else stack.push(...childrenOf(expr));
  }
  return values;
}

async function runSelect(
  query: SelectQuery,
  env: QueryEnvironment,
  budget: QueryBudget,
  ctes: ReadonlyMap<string, UnionQuery>,
): Promise<Record<string, unknown>[]> {
  const evaluator = new Evaluator(env, budget, await subqueryValues(query, env, budget, ctes));
  const source = await rowsOf(query.from, env, budget, ctes);
  if (query.where && aggregatesIn(query.where).length > 0)
    throw new AnalyticsQueryError("Aggregate function is found in WHERE", CH.ILLEGAL_AGGREGATION);
  const items = query.items;
  // Rows that go out one for one (no aggregate, ORDER BY or arrayJoin) are read only as far as the answer needs: to
  // the LIMIT, or past the result's bound (then to the end of that block, which ClickHouse counts in its refusal).
  const streaming =
    query.groupBy.length === 0 &&
    query.orderBy.length === 0 &&
    (items === "*" || items.every((item) => aggregatesIn(item.expr).length === 0 && !hasArrayJoin(item.expr)));
  const needed = query.limit === null ? Infinity : query.offset + query.limit;
  const rows: Row[] = [];
  let counted = 0;
  for (const row of source) {
    await budget.checkpoint();
    if (query.where && !truthy(evaluator.value(query.where, row, null))) continue;
    if (streaming && rows.length >= needed) break;
    if (streaming && rows.length - query.offset >= env.maxResultRows) {
      counted = Math.max(counted, rows.length - query.offset) + 1;
      if (counted % BLOCK_ROWS === 0) break;
      continue;
    }
    budget.retain(1);
    rows.push(row);
  }
  if (counted > 0) throw resultTooBig(env.maxResultRows, counted);
  const aggregateCalls =
    items === "*" ? [] : [...items.map((i) => i.expr), ...query.orderBy.map((o) => o.expr)].flatMap(aggregatesIn);
  const aggregated =
    query.groupBy.length > 0 || (items !== "*" && items.some((item) => aggregatesIn(item.expr).length > 0));
  if (aggregated && items === "*") throw new AnalyticsQueryError("SELECT * with GROUP BY is not supported");

  // Each result row with the context its ORDER BY reads: a source row, or a group's first row and its aggregates.
  const contexts: Context[] = [];
  if (aggregated) {
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      await budget.checkpoint();
      const key = JSON.stringify(query.groupBy.map((expr) => output(evaluator.value(expr, row, null))));
      const members = groups.get(key);
      if (members) members.push(row);
      else groups.set(key, [row]);
    }
    // Without GROUP BY, aggregates read all rows as one group, even none.
    if (query.groupBy.length === 0 && groups.size === 0) groups.set("[]", []);
    for (const group of groups.values()) {
      const values = new Map<Expr, Value>();
      for (const call of aggregateCalls) values.set(call, await evaluator.aggregate(call, group));
      contexts.push({ row: group[0] ?? {}, aggregates: values });
    }
  } else {
    for (const row of rows) contexts.push({ row, aggregates: null });
  }

  // A SELECT column arrayJoin(array) makes one output row per element (the first such column; others read its row).
  const joinCall =
    items === "*"
      ? undefined
      : items.map((i) => i.expr).find((e) => e.kind === "call" && e.name.toLowerCase() === "arrayjoin");
  const results: { context: Context; out: Record<string, unknown> }[] = [];
  for (const context of contexts) {
    await budget.checkpoint();
    const elements: (Value | undefined)[] = [undefined];
    if (joinCall?.kind === "call") {
      const array = evaluator.value(joinCall.args[0]!, context.row, context.aggregates);
      if (!Array.isArray(array))
        throw new AnalyticsQueryError(
          "Argument for function arrayJoin must be Array or Map",
          CH.ILLEGAL_TYPE_OF_ARGUMENT,
        );
      elements.splice(0, 1, ...(array as Value[]));
      budget.retain(array.length);
    }
    for (const element of elements) {
      if (joinCall && element !== undefined) evaluator.joined.set(joinCall, element);
      let out: Record<string, unknown>;
      if (items === "*") {
        const columns = starColumns(query.from);
        out = Object.fromEntries(
          Object.entries(context.row)
            .filter(([k]) => columns === null || columns.includes(k))
            .map(([k, v]) => [k, output(v)]),
        );
      } else {
        out = {};
        for (const item of items) out[item.name] = output(evaluator.value(item.expr, context.row, context.aggregates));
      }
      results.push({ context, out });
    }
  }

  let ordered = results;
  if (query.orderBy.length > 0) {
    const keyOf = (entry: (typeof results)[number], expr: Expr): Value => {
      // An output column's alias may be ordered by, as in ClickHouse.
      if (
        expr.kind === "column" &&
        expr.path.length === 1 &&
        items !== "*" &&
        items.some((i) => i.name === expr.path[0]) &&
        !Object.hasOwn(entry.context.row, expr.path[0]!)
      ) {
        return entry.out[expr.path[0]!] as Value;
      }
      return evaluator.value(expr, entry.context.row, entry.context.aggregates);
    };
    const keyed: { entry: (typeof results)[number]; keys: Value[] }[] = [];
    for (const entry of results) {
      await budget.checkpoint();
      keyed.push({ entry, keys: query.orderBy.map((o) => keyOf(entry, o.expr)) });
    }
    keyed.sort((a, b) => {
      budget.charge(1);
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
    ordered = keyed.map((k) => k.entry);
  }
  const limited = ordered.slice(query.offset, query.limit === null ? undefined : query.offset + query.limit);
  return limited.map((entry) => entry.out);
}
