import type { Wildcard } from "@authsim/sdk/runtime";
import type { QueryBudget } from "./analytics-budget.ts";
import { AnalyticsQueryError, CH } from "./analytics-errors.ts";
import type { QueryEnvironment } from "./analytics-environment.ts";
import { callScalar } from "./analytics-functions.ts";
import { childrenOf, type Expr, type UnionQuery } from "./analytics-sql-ast.ts";
import {
  compare,
  dateTime,
  isDateTime,
  likePattern,
  output,
  paramValue,
  truthy,
  type Row,
  type Value,
} from "./analytics-values.ts";

/**
 * One expression of an analytics query evaluated over one row (analytics-evaluate.ts runs the query around it), with
 * ClickHouse's answers where they show on the wire (analytics-values.ts): count() and other 64-bit integers as
 * strings (JSONEachRow quotes them), NULL logic in AND/OR/NOT and comparisons. Functions: the aggregates count, uniq,
 * uniqExact, min, max, sum, avg; now, today, toDate, toDateTime, toString, toJSONString, lower, upper, length,
 * coalesce, ifNull, nullIf, if, CAST, toStartOfHour (analytics-casts.ts), getSetting, currentDatabase, currentUser, currentRoles, sleep
 * (analytics-functions.ts), arrayJoin (as a SELECT column). Anything else is ClickHouse's UNKNOWN_FUNCTION. Every node evaluated is charged to the query's budget.
 */

const AGGREGATES = new Set(["count", "uniq", "uniqexact", "min", "max", "sum", "avg"]);
export type Call = Extract<Expr, { kind: "call" }>;
const isAggregate = (expr: Expr): boolean => expr.kind === "call" && AGGREGATES.has(expr.name.toLowerCase());

/** The aggregate calls in an expression, outermost only (one inside another's argument is refused when evaluated). */
export function aggregatesIn(root: Expr): Call[] {
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

export class Evaluator {
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
    // `t.x` where t names the table (analytics-analyze.ts checked that it does): the column x.
    const [head, ...rest] =
      path.length > 1 && !Object.hasOwn(row, path[0]!) && Object.hasOwn(row, path[1]!) ? path.slice(1) : path;
    if (!head || !Object.hasOwn(row, head))
      throw new AnalyticsQueryError(`Unknown expression identifier '${path.join(".")}'`, CH.UNKNOWN_IDENTIFIER);
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
    if (expr.op === "LIKE" || expr.op === "ILIKE") {
      if (left === null || right === null) return null;
      // ILIKE: the same pattern, both sides in lower case (the dashboard's table search sends it).
      const fold = (text: string) => (expr.op === "ILIKE" ? text.toLowerCase() : text);
      return this.like(fold(String(right))).matches(fold(String(output(left))), this.meter) ? 1 : 0;
    }
    if (["+", "-", "*", "/", "%"].includes(expr.op)) {
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
            : expr.op === "/"
              ? left / right
              : left % right;
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
    return callScalar(
      name,
      args.map((arg) => this.value(arg, row, aggregates)),
      this.env,
      this.budget,
    );
  }
}

export type { QueryEnvironment };
