import type { QueryBudget } from "./analytics-budget.ts";
import { analyzeQuery } from "./analytics-analyze.ts";
import { schemaOf } from "./analytics-catalog.ts";
import { AnalyticsQueryError, CH, readableQuantity, SqlSyntaxError } from "./analytics-errors.ts";
import { aggregatesIn, Evaluator, type QueryEnvironment } from "./analytics-expressions.ts";
import { joinRows, type Joined } from "./analytics-joins.ts";
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
import { compare, dateTime, output, truthy, type Row, type Value } from "./analytics-values.ts";

/**
 * Runs a parsed analytics statement (analytics-sql.ts, analytics-statements.ts) over rows in memory: checked first as
 * ClickHouse's analyzer does (analytics-analyze.ts), then each SELECT of a UNION ALL with its WITH tables and
 * subqueries, FROM a table, numbers(n) or a subquery, WHERE, GROUP BY with aggregates, ORDER BY (NULLs last), LIMIT and
 * OFFSET; expressions by analytics-expressions.ts. The result is refused over max_result_rows as ClickHouse does.
 *
 * Evaluation is asynchronous and counted (analytics-budget.ts): it yields between rows and groups so the server goes on
 * serving, and stops with ClickHouse's timeout once the query's time is spent; the rows it holds at once are bounded
 * (QueryBudget.retain). A group's aggregates are computed before its row is projected, a row at a time between
 * checkpoints, so no aggregate over many rows runs in one stretch.
 */

export { AnalyticsQueryError, SqlSyntaxError, dateTime, type QueryEnvironment, type Row };

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
  ctes: Ctes,
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
  const cte = ref.database === null ? ctes.get(ref.table) : undefined;
  if (cte) {
    // Run once per query however often it is read (a chain of CTEs each reading the last twice stays linear), in the
    // names in scope where it was defined (so it cannot read itself).
    const cache = cteResults.get(budget) ?? new Map<UnionQuery, Record<string, unknown>[]>();
    cteResults.set(budget, cache);
    let rows = cache.get(cte.query);
    if (!rows) {
      rows = await runUnion(cte.query, env, budget, cte.scope);
      cache.set(cte.query, rows);
    }
    return rows as Row[];
  }
  const name = ref.database && ref.database !== "default" ? `${ref.database}.${ref.table}` : ref.table;
  const rows = Object.hasOwn(env.tables, name) ? env.tables[name] : undefined;
  if (!rows)
    throw new AnalyticsQueryError(
      `authsim's analytics emulation has no rows for ${name} (it serves: ${(env.served ?? Object.keys(env.tables)).join(", ")})`,
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
  const rows = await runUnion(statement.query, env, budget, new Map(), env.maxResultRows);
  if (rows.length > env.maxResultRows)
    throw resultTooBig(
      env.maxResultRows,
      Math.min(rows.length, Math.ceil((env.maxResultRows + 1) / BLOCK_ROWS) * BLOCK_ROWS),
    );
  return rows;
}

/** The WITH tables in scope: each with the names in scope where it was defined. */
type Ctes = ReadonlyMap<string, { query: UnionQuery; scope: Ctes }>;
/** Each query's CTE results (one budget per query). */
const cteResults = new WeakMap<QueryBudget, Map<UnionQuery, Record<string, unknown>[]>>();

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
  outer: Ctes,
  /** max_result_rows, for the statement's own result (a subquery's or CTE's rows are not a result). */
  resultBound = Infinity,
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (const select of query.selects) {
    const ctes = new Map(outer);
    for (const cte of select.with) ctes.set(cte.name, { query: cte.query, scope: new Map(ctes) });
    for (const row of await runSelect(select, env, budget, ctes, resultBound)) {
      if (query.selects.length > 1) budget.retain(1);
      rows.push(row);
    }
  }
  return rows;
}

/** The subqueries an expression holds as values (not those inside them): each run once, before the rows. */
async function subqueryValues(
  select: SelectQuery,
  env: QueryEnvironment,
  budget: QueryBudget,
  ctes: Ctes,
): Promise<Map<UnionQuery, Value[]>> {
  const values = new Map<UnionQuery, Value[]>();
  const stack = [
    ...(select.items === "*" ? [] : select.items.map((i) => i.expr)),
    ...select.joins.flatMap((join) => (join.on ? [join.on] : [])),
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
  ctes: Ctes,
  resultBound: number,
): Promise<Record<string, unknown>[]> {
  const evaluator = new Evaluator(env, budget, await subqueryValues(query, env, budget, ctes));
  let source = await rowsOf(query.from, env, budget, ctes);
  let joinedStar: Joined["star"] | null = null;
  if (query.from && query.joins.length > 0) {
    const joined = await joinRows(
      query.from,
      source,
      query.joins,
      (ref) => rowsOf(ref, env, budget, ctes),
      evaluator,
      budget,
    );
    [source, joinedStar] = [joined.rows, joined.star];
  }
  if (query.where && aggregatesIn(query.where).length > 0)
    throw new AnalyticsQueryError("Aggregate function is found in WHERE", CH.ILLEGAL_AGGREGATION);
  const items = query.items;
  // GROUP BY may name a SELECT column's alias (`GROUP BY m` for `x % 3 AS m`), where no column of the table has it.
  const aliased = new Map(items === "*" ? [] : items.map((item) => [item.name, item.expr] as const));
  const tableColumns = query.from?.kind === "table" ? starColumns(query.from) : null;
  const groupBy = query.groupBy.map((expr) =>
    expr.kind === "column" &&
    expr.path.length === 1 &&
    aliased.has(expr.path[0]!) &&
    aliased.get(expr.path[0]!) !== expr &&
    !(tableColumns ?? []).includes(expr.path[0]!)
      ? aliased.get(expr.path[0]!)!
      : expr,
  );
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
    if (streaming && rows.length - query.offset >= resultBound) {
      counted = Math.max(counted, rows.length - query.offset) + 1;
      if (counted % BLOCK_ROWS === 0) break;
      continue;
    }
    budget.retain(1);
    rows.push(row);
  }
  if (counted > 0) throw resultTooBig(resultBound, counted);
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
      const key = JSON.stringify(groupBy.map((expr) => output(evaluator.value(expr, row, null))));
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
      : items
          .map((i) => i.expr)
          .find((e): e is Extract<Expr, { kind: "call" }> => e.kind === "call" && e.name.toLowerCase() === "arrayjoin");
  const project = (context: Context): Record<string, unknown> => {
    if (items === "*" && joinedStar)
      return Object.fromEntries(joinedStar.map(([name, read]) => [name, output(read(context.row))]));
    if (items === "*") {
      const columns = starColumns(query.from);
      return Object.fromEntries(
        Object.entries(context.row)
          .filter(([k]) => columns === null || columns.includes(k))
          .map(([k, v]) => [k, output(v)]),
      );
    }
    const out: Record<string, unknown> = {};
    for (const item of items) out[item.name] = output(evaluator.value(item.expr, context.row, context.aggregates));
    return out;
  };
  const window = <T>(ordered: T[]) =>
    ordered.slice(query.offset, query.limit === null ? undefined : query.offset + query.limit);
  // What ORDER BY reads of a row: its expression, or the output column an alias names (as in ClickHouse) when the row
  // has no column of that name.
  const orderExpr = (expr: Expr, row: Row): Expr => {
    if (expr.kind !== "column" || expr.path.length !== 1 || items === "*" || Object.hasOwn(row, expr.path[0]!))
      return expr;
    return items.find((i) => i.name === expr.path[0])?.expr ?? expr;
  };

  if (!joinCall) {
    // One output row per context: sort the contexts and project only the rows the LIMIT keeps (a dashboard page of 50
    // out of thousands builds 50 rows).
    if (query.orderBy.length === 0) return window(contexts).map(project);
    const keyed: Keyed<Context>[] = [];
    for (const context of contexts) {
      await budget.checkpoint();
      const keys = query.orderBy.map((o) =>
        evaluator.value(orderExpr(o.expr, context.row), context.row, context.aggregates),
      );
      keyed.push({ item: context, keys });
    }
    return window(sortByKeys(keyed, query.orderBy, budget)).map(project);
  }

  const results: { context: Context; out: Record<string, unknown> }[] = [];
  for (const context of contexts) {
    await budget.checkpoint();
    const array = evaluator.value(joinCall.args[0]!, context.row, context.aggregates);
    if (!Array.isArray(array))
      throw new AnalyticsQueryError(
        "Argument for function arrayJoin must be Array or Map",
        CH.ILLEGAL_TYPE_OF_ARGUMENT,
      );
    budget.retain(array.length);
    for (const element of array as Value[]) {
      evaluator.joined.set(joinCall, element);
      results.push({ context, out: project(context) });
    }
  }
  if (query.orderBy.length === 0) return window(results).map((entry) => entry.out);
  // With arrayJoin an alias may name the joined element: ordered by the output row's value.
  const keyed: Keyed<(typeof results)[number]>[] = [];
  for (const entry of results) {
    await budget.checkpoint();
    const keys = query.orderBy.map((o) => {
      const expr = orderExpr(o.expr, entry.context.row);
      return expr === o.expr
        ? evaluator.value(expr, entry.context.row, entry.context.aggregates)
        : (entry.out[(o.expr as { path: string[] }).path[0]!] as Value);
    });
    keyed.push({ item: entry, keys });
  }
  return window(sortByKeys(keyed, query.orderBy, budget)).map((entry) => entry.out);
}

interface Keyed<T> {
  item: T;
  keys: Value[];
}

/** ORDER BY: by each key in turn, NULLs last in either direction (ClickHouse's default); a stable sort. */
function sortByKeys<T>(keyed: Keyed<T>[], orderBy: readonly { descending: boolean }[], budget: QueryBudget): T[] {
  keyed.sort((a, b) => {
    budget.charge(1);
    for (let i = 0; i < orderBy.length; i++) {
      const x = a.keys[i]!;
      const y = b.keys[i]!;
      if (x === null || y === null) {
        if (x === y) continue;
        return x === null ? 1 : -1;
      }
      const order = compare(x, y) ?? 0;
      if (order !== 0) return orderBy[i]!.descending ? -order : order;
    }
    return 0;
  });
  return keyed.map((k) => k.item);
}
