import { CH, SqlSyntaxError } from "./analytics-errors.ts";

/**
 * A parsed analytics query (analytics-sql.ts reads it, analytics-evaluate.ts runs it), and ClickHouse's bounds on a
 * query, kept with ClickHouse's wording: the size of its text, the depth and size of its tree (the parser checks its
 * own nesting as it reads).
 */

export type Expr =
  | { kind: "literal"; value: string | number | boolean | null }
  | { kind: "param"; name: string; type: string }
  | { kind: "column"; path: string[] }
  | { kind: "star" }
  | { kind: "unary"; op: "NOT" | "-"; operand: Expr }
  | { kind: "binary"; op: string; left: Expr; right: Expr }
  /** `a AND b AND c` is one node of three operands, as ClickHouse reads it: a long chain is wide, not deep. */
  | { kind: "logical"; op: "AND" | "OR"; operands: Expr[] }
  | { kind: "in"; negated: boolean; operand: Expr; list: Expr[] }
  | { kind: "isNull"; negated: boolean; operand: Expr }
  | { kind: "call"; name: string; args: Expr[] }
  | { kind: "array"; items: Expr[] }
  /** `(SELECT …)` as a value (its first row's first column) or as an IN list (its first column). */
  | { kind: "subquery"; query: UnionQuery };

/** What a FROM reads: a table, a table function's rows or a subquery's; `alias` names it for the columns. */
export type TableRef =
  | { kind: "table"; database: string | null; table: string; alias: string | null }
  | { kind: "function"; name: string; args: Expr[]; alias: string | null }
  | { kind: "subquery"; query: UnionQuery; alias: string | null };

export interface SelectItem {
  expr: Expr;
  /** The output column's name: its alias, or the expression's text as written (as ClickHouse names it). */
  name: string;
}

/**
 * `[INNER] JOIN`, `LEFT [OUTER] JOIN` or `CROSS JOIN` after the FROM, with `ON condition` or `USING (columns)` (none for
 * CROSS).
 */
export interface JoinClause {
  kind: "INNER" | "LEFT" | "CROSS";
  ref: TableRef;
  on: Expr | null;
  using: string[];
}

export interface SelectQuery {
  /** `WITH name AS (SELECT …)`: tables the query (and its subqueries) may read by name. */
  with: { name: string; query: UnionQuery }[];
  items: SelectItem[] | "*";
  from: TableRef | null;
  joins: JoinClause[];
  where: Expr | null;
  groupBy: Expr[];
  orderBy: { expr: Expr; descending: boolean }[];
  limit: number | null;
  offset: number;
}

/** SELECTs joined by UNION ALL (one, mostly); each keeps its own ORDER BY and LIMIT, as ClickHouse reads them. */
export interface UnionQuery {
  selects: SelectQuery[];
}

/** A statement the emulation runs: a query and the settings its SETTINGS clause names. */
export interface QueryStatement {
  query: UnionQuery;
  settings: string[];
}

/** ClickHouse's bounds on a parsed query (max_ast_depth, max_ast_elements, max_query_size): their defaults. */
export const MAX_AST_DEPTH = 1_000;
export const MAX_AST_ELEMENTS = 50_000;
export const MAX_QUERY_SIZE = 262_144;

/** ClickHouse's max_query_size, in UTF-8 bytes, checked before the text is read. */
export function checkQuerySize(text: string): void {
  if (utf8Length(text) > MAX_QUERY_SIZE)
    throw new SqlSyntaxError(`Syntax error: failed at position ${MAX_QUERY_SIZE + 1}: Max query size exceeded`);
}

function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Two bytes up to U+07FF, three up to U+FFFF; a surrogate pair is four, two code units of two each.
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/** The expressions directly under one. */
export function childrenOf(expr: Expr): readonly Expr[] {
  switch (expr.kind) {
    case "unary":
    case "isNull":
      return [expr.operand];
    case "binary":
      return [expr.left, expr.right];
    case "logical":
      return expr.operands;
    case "in":
      return [expr.operand, ...expr.list];
    case "call":
      return expr.args;
    case "array":
      return expr.items;
    default:
      return [];
  }
}

/**
 * ClickHouse's max_ast_depth and max_ast_elements, checked without recursion: `1 + 1 + … + 1` parses without nesting
 * (left-associative operators are read in a loop) into a tree as deep as it is long, which the evaluator's recursion
 * must never meet.
 */
export function checkAstBounds(query: UnionQuery): void {
  const stack: [Expr, number][] = rootsOf(query).map((root) => [root, 1]);
  let elements = 0;
  while (stack.length > 0) {
    const [expr, depth] = stack.pop()!;
    if (depth > MAX_AST_DEPTH) throw new SqlSyntaxError(`AST is too deep. Maximum: ${MAX_AST_DEPTH}`, CH.TOO_DEEP_AST);
    if (++elements > MAX_AST_ELEMENTS)
      throw new SqlSyntaxError(`AST is too big. Maximum: ${MAX_AST_ELEMENTS}`, CH.TOO_BIG_AST);
    const children = expr.kind === "subquery" ? rootsOf(expr.query) : childrenOf(expr);
    for (const child of children) stack.push([child, depth + 1]);
  }
}

/** The expressions a query's SELECTs hold (the FROM's and WITH's subqueries' as well, one level down). */
export function rootsOf(query: UnionQuery): Expr[] {
  const roots: Expr[] = [];
  for (const select of query.selects) {
    for (const cte of select.with) roots.push({ kind: "subquery", query: cte.query });
    for (const ref of [select.from, ...select.joins.map((j) => j.ref)]) {
      if (ref?.kind === "function") roots.push(...ref.args);
      if (ref?.kind === "subquery") roots.push({ kind: "subquery", query: ref.query });
    }
    for (const join of select.joins) if (join.on) roots.push(join.on);
    if (select.items !== "*") roots.push(...select.items.map((i) => i.expr));
    if (select.where) roots.push(select.where);
    roots.push(...select.groupBy, ...select.orderBy.map((o) => o.expr));
  }
  return roots;
}
