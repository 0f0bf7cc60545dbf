import type { QueryBudget } from "./analytics-budget.ts";
import { schemaOf } from "./analytics-catalog.ts";
import type { Evaluator } from "./analytics-expressions.ts";
import { childrenOf, type Expr, type JoinClause, type TableRef } from "./analytics-sql-ast.ts";
import { dateTime, output, truthy, type Row, type Value } from "./analytics-values.ts";

/**
 * A FROM's JOINs run over rows in memory (analytics-evaluate.ts reads the tables): INNER, LEFT and CROSS, with ON or
 * USING, as ClickHouse answers them with its default settings.
 *
 * A joined row holds the left row's columns over the right's (an unqualified name reads the left table's when both
 * have it) and, under each table's name or alias, that table's own row, so `u.id` reads the right one. An equality
 * between a left and a right expression is matched through a hash of the right rows (users × events stays linear);
 * what is left of ON is checked on each matched pair. A left row with no match in a LEFT JOIN gets the right table's
 * defaults, as ClickHouse fills them (join_use_nulls = 0): '' for String, 0 for numbers, the zero UUID and time, NULL
 * only for a Nullable column.
 */

/** The name a table's columns are qualified by: its alias, or the table's own name. */
export function qualifierOf(ref: TableRef): string | null {
  return ref.alias ?? (ref.kind === "table" ? ref.table : null);
}

/** The columns a source shows, in order: its schema's for a table, else its first row's. */
function columnsOf(ref: TableRef, rows: readonly Row[], qualifiers: ReadonlySet<string>): string[] {
  if (ref.kind === "table") {
    const schema = schemaOf(ref.database ?? "default", ref.table);
    if (schema) return schema.columns.map(([name]) => name);
  }
  return Object.keys(rows[0] ?? {}).filter((name) => !qualifiers.has(name));
}

/** ClickHouse's default value of a type (what an unmatched LEFT JOIN row reads). */
export function defaultOf(type: string | null): Value {
  if (type === null || /^Nullable\(/.test(type)) return null;
  const base = type.replace(/^LowCardinality\((.*)\)$/, "$1");
  if (/^Nullable\(/.test(base)) return null;
  if (/^U?Int(64|128|256)$/.test(base)) return "0";
  if (/^(U?Int\d+|Float\d+|Decimal.*|Bool)$/.test(base)) return 0;
  if (base === "UUID") return "00000000-0000-0000-0000-000000000000";
  if (/^DateTime/.test(base)) return dateTime(0);
  if (base === "JSON") return {};
  return /^(String|FixedString)/.test(base) ? "" : null;
}

function defaultsOf(ref: TableRef, columns: readonly string[]): Row {
  const schema = ref.kind === "table" ? schemaOf(ref.database ?? "default", ref.table) : null;
  // numbers(n)'s column reads 0 as the emulation prints its values (plain numbers); a subquery's types are not
  // tracked (its defaults read NULL).
  const types = new Map<string, string>(ref.kind === "function" ? [["number", "UInt32"]] : (schema?.columns ?? []));
  return Object.fromEntries(columns.map((name) => [name, defaultOf(types.get(name) ?? null)]));
}

/** The ANDed parts of a condition. */
const conjuncts = (expr: Expr): Expr[] => (expr.kind === "logical" && expr.op === "AND" ? expr.operands : [expr]);

/** Which side's columns an expression reads: "left", "right", null for neither, "both" for both. */
function sideOf(
  expr: Expr,
  right: { qualifier: string | null; columns: ReadonlySet<string> },
  left: { qualifiers: ReadonlySet<string>; columns: ReadonlySet<string> },
): "left" | "right" | "both" | null {
  let side: "left" | "right" | "both" | null = null;
  const stack = [expr];
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (e.kind === "subquery") continue;
    if (e.kind === "column") {
      const [head, next] = e.path;
      const here =
        next !== undefined && head === right.qualifier
          ? "right"
          : next !== undefined && left.qualifiers.has(head!)
            ? "left"
            : left.columns.has(head!)
              ? "left"
              : right.columns.has(head!)
                ? "right"
                : "left";
      side = side === null || side === here ? here : "both";
    } else stack.push(...childrenOf(e));
  }
  return side;
}

export interface Joined {
  rows: Row[];
  /** `SELECT *`'s columns: each output name and how a joined row gives it. */
  star: [string, (row: Row) => Value][];
}

/**
 * The FROM's rows joined with each JOIN's in turn. `leftRows` are the FROM's; `rowsOf` reads a joined table's.
 */
export async function joinRows(
  from: TableRef,
  leftRows: Iterable<Row>,
  joins: readonly JoinClause[],
  rowsOf: (ref: TableRef) => Promise<Iterable<Row>>,
  evaluator: Evaluator,
  budget: QueryBudget,
): Promise<Joined> {
  const qualifiers = new Set<string>();
  const fromQualifier = qualifierOf(from);
  let rows: Row[] = [];
  for (const row of leftRows) {
    await budget.checkpoint();
    budget.retain(1);
    rows.push(fromQualifier ? { ...row, [fromQualifier]: row } : row);
  }
  if (fromQualifier) qualifiers.add(fromQualifier);
  const leftColumns = columnsOf(from, rows, qualifiers);
  const star: Joined["star"] = leftColumns.map((name) => [name, (row: Row) => row[name] ?? null]);
  const seen = new Set(leftColumns);

  for (const join of joins) {
    const qualifier = qualifierOf(join.ref);
    const rightRows: Row[] = [];
    for (const row of await rowsOf(join.ref)) {
      await budget.checkpoint();
      budget.retain(1);
      rightRows.push(qualifier ? { ...row, [qualifier]: row } : row);
    }
    const rightColumns = columnsOf(join.ref, rightRows, new Set(qualifier ? [qualifier] : []));
    const sides = {
      right: { qualifier, columns: new Set(rightColumns) },
      left: { qualifiers, columns: seen },
    };
    // Equalities of a left and a right expression key the match; the rest of ON is checked on each pair.
    const keys: { left: Expr; right: Expr }[] = join.using.map((name) => ({
      left: { kind: "column", path: [name] },
      right: { kind: "column", path: [name] },
    }));
    const rest: Expr[] = [];
    for (const part of join.on ? conjuncts(join.on) : []) {
      if (part.kind === "binary" && part.op === "=") {
        const [a, b] = [sideOf(part.left, sides.right, sides.left), sideOf(part.right, sides.right, sides.left)];
        if (a === "left" && b === "right") keys.push({ left: part.left, right: part.right });
        else if (a === "right" && b === "left") keys.push({ left: part.right, right: part.left });
        else rest.push(part);
      } else rest.push(part);
    }
    const keyOf = (row: Row, exprs: readonly Expr[]): string | null => {
      const values = exprs.map((e) => evaluator.value(e, row, null));
      return values.includes(null) ? null : JSON.stringify(values.map(output));
    };
    let candidates: (left: Row) => readonly Row[];
    if (keys.length > 0) {
      const index = new Map<string, Row[]>();
      for (const right of rightRows) {
        await budget.checkpoint();
        const key = keyOf(
          right,
          keys.map((k) => k.right),
        );
        if (key === null) continue;
        const list = index.get(key);
        if (list) list.push(right);
        else index.set(key, [right]);
      }
      candidates = (left) => {
        const key = keyOf(
          left,
          keys.map((k) => k.left),
        );
        return key === null ? [] : (index.get(key) ?? []);
      };
    } else candidates = () => rightRows;

    const defaults = defaultsOf(join.ref, rightColumns);
    const out: Row[] = [];
    for (const left of rows) {
      let matched = false;
      for (const right of candidates(left)) {
        await budget.checkpoint();
        const row = { ...right, ...left };
        if (!rest.every((part) => truthy(evaluator.value(part, row, null)))) continue;
        matched = true;
        budget.retain(1);
        out.push(row);
      }
      if (!matched && join.kind === "LEFT") {
        budget.retain(1);
        out.push({ ...defaults, ...(qualifier ? { [qualifier]: defaults } : {}), ...left });
      }
    }
    rows = out;
    if (qualifier) qualifiers.add(qualifier);
    for (const name of rightColumns) {
      if (join.using.includes(name)) continue;
      if (!seen.has(name)) {
        seen.add(name);
        star.push([name, (row) => row[name] ?? null]);
      } else if (qualifier) {
        star.push([`${qualifier}.${name}`, (row) => ((row[qualifier] as Row | undefined)?.[name] ?? null) as Value]);
      }
    }
  }
  return { rows, star };
}
