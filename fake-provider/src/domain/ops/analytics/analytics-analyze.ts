import {
  grantColumn,
  mayRead,
  notEnoughPrivileges,
  schemaOf,
  TABLE_FUNCTION_GRANTS,
  type TableSchema,
} from "./analytics-catalog.ts";
import { AnalyticsQueryError, CH } from "./analytics-errors.ts";
import { qualifierOf } from "./analytics-joins.ts";
import { childrenOf, type Expr, type SelectQuery, type TableRef, type UnionQuery } from "./analytics-sql-ast.ts";

/**
 * A parsed query checked as ClickHouse's analyzer checks it before running anything: every table it names exists
 * (UNKNOWN_TABLE), every column it names is one of its tables' (UNKNOWN_IDENTIFIER, with ClickHouse's hint; `t.x`
 * names the column x of the table named or aliased t, a JOIN's included), the
 * types `if` and `arrayJoin` need (NO_COMMON_TYPE, ILLEGAL_TYPE_OF_ARGUMENT), then the user's grants on each table it
 * reads and on the table functions it calls (ACCESS_DENIED, naming the columns read). Checks run in that order, as
 * ClickHouse's do: a misspelt column of a table the user may not read is answered as misspelt.
 */

/** A FROM resolved: its output columns, and the table it reads when it is one (for the grants). */
interface Source {
  columns: readonly (readonly [string, string | null])[];
  table: { database: string; table: string } | null;
  names: string[];
  all: boolean;
}

interface Read {
  database: string;
  table: string;
  columns: Set<string>;
  all: boolean;
  schema: TableSchema;
}

const baseType = (type: string): string =>
  type.replace(/^(Nullable|LowCardinality)\((.*)\)$/, "$2").replace(/^(Nullable|LowCardinality)\((.*)\)$/, "$2");
const isStringLike = (type: string) => /^(String|FixedString\(\d+\)|Enum(8|16)?\(.*\))$/.test(type);
const isNumeric = (type: string) => /^(U?Int\d+|Float(32|64)|Decimal.*|Bool)$/.test(type);

function integerType(value: number): string {
  if (value >= 0)
    return value <= 0xff ? "UInt8" : value <= 0xffff ? "UInt16" : value <= 0xffffffff ? "UInt32" : "UInt64";
  return value >= -0x80 ? "Int8" : value >= -0x8000 ? "Int16" : value >= -0x80000000 ? "Int32" : "Int64";
}

/** Levenshtein distance, bounded work: names are short. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** ClickHouse's "Maybe you meant: ['…']": the nearest names, when near enough (at most half the name's length away). */
function hint(name: string, candidates: readonly string[]): string {
  if (name.length > 64) return "";
  let best = Infinity;
  let found: string[] = [];
  for (const candidate of candidates) {
    if (candidate.length > 64) continue;
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d * 2 > name.length) continue;
    if (d < best) [best, found] = [d, [candidate]];
    else if (d === best) found.push(candidate);
  }
  return found.length > 0 ? `. Maybe you meant: [${found.map((n) => `'${n}'`).join(", ")}]` : "";
}

class Analyzer {
  readonly reads: Read[] = [];
  /** Each WITH table's columns, checked once where it is defined (not again per reference: a chain stays linear). */
  private readonly cteColumns = new Map<UnionQuery, string[]>();
  constructor(private readonly scope: string) {}

  query(query: UnionQuery, ctes: ReadonlyMap<string, UnionQuery>): string[] {
    let names: string[] = [];
    for (const select of query.selects) {
      const own = this.select(select, ctes);
      if (names.length === 0) names = own;
    }
    return names;
  }

  /** Checks one SELECT; its output column names. */
  private select(select: SelectQuery, outer: ReadonlyMap<string, UnionQuery>): string[] {
    const ctes = new Map(outer);
    for (const cte of select.with) {
      this.cteColumns.set(cte.query, this.query(cte.query, ctes));
      ctes.set(cte.name, cte.query);
    }
    const source = select.from ? this.source(select.from, ctes) : { columns: [], table: null, names: [], all: false };
    // The FROM's table and each JOIN's, with the columns read of each (for the grants).
    const sources = [source, ...select.joins.map((join) => this.source(join.ref, ctes))].map((s) => ({
      source: s,
      read: s.table ? this.readOf(s) : null,
      types: new Map(s.columns),
    }));
    for (const { read } of sources) if (read && select.items === "*") read.all = true;
    select.joins.forEach((join, i) => {
      for (const name of join.using) {
        const left = sources.slice(0, i + 1).find((s) => s.types.has(name));
        const right = sources[i + 1]!;
        const missing = !left ? sources[0]! : !right.types.has(name) ? right : null;
        if (missing)
          throw new AnalyticsQueryError(
            `Unknown expression identifier \`${name}\` in scope ${this.scope}${hint(name, [...missing.types.keys()])}`,
            CH.UNKNOWN_IDENTIFIER,
          );
        left!.read?.columns.add(name);
        right.read?.columns.add(name);
      }
    });
    // Names the SELECT gives (a column read by its own name gives none: it must be the table's).
    const aliases = new Set(
      select.items === "*"
        ? []
        : select.items
            .filter((item) => item.expr.kind !== "column" || item.expr.path.join(".") !== item.name)
            .map((item) => item.name),
    );
    const exprs = [
      ...(select.items === "*" ? [] : select.items.map((item) => item.expr)),
      ...select.joins.flatMap((join) => (join.on ? [join.on] : [])),
      ...(select.where ? [select.where] : []),
      ...select.groupBy,
      ...select.orderBy.map((o) => o.expr),
    ];
    // An unqualified name is the first table's that has it (the FROM's before a JOIN's).
    const types = new Map<string, string | null>();
    for (const { source: s } of [...sources].reverse()) for (const [name, type] of s.columns) types.set(name, type);
    const stack = [...exprs];
    while (stack.length > 0) {
      const expr = stack.pop()!;
      if (expr.kind === "subquery") {
        this.query(expr.query, ctes);
        continue;
      }
      if (expr.kind === "column") {
        const named = expr.path.length > 1 ? sources.find((s) => s.source.names.includes(expr.path[0]!)) : undefined;
        const path = named ? expr.path.slice(1) : expr.path;
        const head = path[0]!;
        const known = named ? named.types : types;
        const owner = named ?? sources.find((s) => s.types.has(head));
        if (known.has(head)) owner?.read?.columns.add(head);
        else if (!aliases.has(head)) {
          throw new AnalyticsQueryError(
            `Unknown expression identifier \`${expr.path.join(".")}\` in scope ${this.scope}${hint(head, [...known.keys()])}`,
            CH.UNKNOWN_IDENTIFIER,
          );
        }
      }
      if (expr.kind === "call") this.checkCall(expr, types);
      stack.push(...childrenOf(expr));
    }
    if (select.items === "*") {
      // A JOIN's columns after the FROM's; one the FROM has already is named by its table (`u.id`).
      const names = source.columns.map(([name]) => name);
      select.joins.forEach((join, i) => {
        const qualifier = qualifierOf(join.ref);
        for (const [name] of sources[i + 1]!.source.columns) {
          if (join.using.includes(name)) continue;
          if (!names.includes(name)) names.push(name);
          else if (qualifier) names.push(`${qualifier}.${name}`);
        }
      });
      return names;
    }
    return select.items.map((item) => item.name);
  }

  private checkCall(call: Extract<Expr, { kind: "call" }>, types: ReadonlyMap<string, string | null>): void {
    const name = call.name.toLowerCase();
    if (name === "if" && call.args.length === 3) {
      const a = this.typeOf(call.args[1]!, types);
      const b = this.typeOf(call.args[2]!, types);
      if (a && b && ((isStringLike(a) && isNumeric(b)) || (isNumeric(a) && isStringLike(b))))
        throw new AnalyticsQueryError(
          `There is no supertype for types ${a}, ${b} because some of them are String\\/FixedString\\/Enum and some of them are not: In scope ${this.scope}`,
          CH.NO_COMMON_TYPE,
        );
    }
    if (name === "arrayjoin" && call.args.length === 1) {
      const type = this.typeOf(call.args[0]!, types);
      if (type && !/^(Array|Map)\(/.test(type))
        throw new AnalyticsQueryError(
          `Argument for function arrayJoin must be Array or Map: In scope ${this.scope}`,
          CH.ILLEGAL_TYPE_OF_ARGUMENT,
        );
    }
  }

  /** The static type of an expression where it is plain (a literal, a column, a parameter); null otherwise. */
  private typeOf(expr: Expr, types: ReadonlyMap<string, string | null>): string | null {
    switch (expr.kind) {
      case "literal":
        if (typeof expr.value === "string") return "String";
        if (typeof expr.value === "number") return Number.isInteger(expr.value) ? integerType(expr.value) : "Float64";
        if (typeof expr.value === "boolean") return "Bool";
        return null;
      case "column": {
        const type = types.get(expr.path[expr.path.length - 1]!) ?? types.get(expr.path[0]!);
        return type && expr.path.length === 1 ? baseType(type) : null;
      }
      case "param":
        return baseType(expr.type);
      case "array":
        return "Array(?)";
      default:
        return null;
    }
  }

  private source(ref: TableRef, ctes: ReadonlyMap<string, UnionQuery>): Source {
    const names = ref.alias ? [ref.alias] : [];
    if (ref.kind === "subquery") {
      const columns = this.query(ref.query, ctes).map((name) => [name, null] as const);
      return { columns, table: null, names, all: false };
    }
    if (ref.kind === "function") {
      const lower = ref.name.toLowerCase();
      if (Object.hasOwn(TABLE_FUNCTION_GRANTS, lower))
        throw new AnalyticsQueryError(notEnoughPrivileges(TABLE_FUNCTION_GRANTS[lower]!), CH.ACCESS_DENIED);
      if (lower === "merge")
        throw new AnalyticsQueryError(
          "There are no tables satisfied provided regexp, you must specify table structure manually",
          CH.CANNOT_EXTRACT_TABLE_STRUCTURE,
        );
      if (lower === "numbers") return { columns: [["number", "UInt64"]], table: null, names, all: false };
      throw new AnalyticsQueryError(`Unknown table function ${ref.name}`, CH.UNKNOWN_FUNCTION);
    }
    if (ref.database === null && ctes.has(ref.table)) {
      const columns = (this.cteColumns.get(ctes.get(ref.table)!) ?? []).map((name) => [name, null] as const);
      return { columns, table: null, names: [...names, ref.table], all: false };
    }
    const database = ref.database ?? "default";
    const schema = schemaOf(database, ref.table);
    if (!schema) {
      const written = ref.database ? `${ref.database}.${ref.table}` : ref.table;
      throw new AnalyticsQueryError(
        `Unknown table expression identifier '${written}' in scope ${this.scope}`,
        CH.UNKNOWN_TABLE,
      );
    }
    return { columns: schema.columns, table: { database, table: ref.table }, names: [...names, ref.table], all: false };
  }

  private readOf(source: Source): Read {
    const { database, table } = source.table!;
    const read: Read = { database, table, columns: new Set(), all: false, schema: schemaOf(database, table)! };
    this.reads.push(read);
    return read;
  }
}

/**
 * Checks `query` as above; throws the first refusal. `scope` is the query's text as ClickHouse quotes it in its
 * messages.
 */
export function analyzeQuery(query: UnionQuery, scope: string): void {
  const analyzer = new Analyzer(scope);
  analyzer.query(query, new Map());
  for (const read of analyzer.reads) {
    if (mayRead(read.database, read.table)) continue;
    const columns = read.schema.columns.map(([name]) => name).filter((name) => read.all || read.columns.has(name));
    const on = `${read.database}.${read.table}`;
    throw new AnalyticsQueryError(
      notEnoughPrivileges(
        columns.length > 0
          ? `SELECT(${columns.map(grantColumn).join(", ")}) ON ${on}`
          : `SELECT for at least one column on ${on}`,
      ),
      CH.ACCESS_DENIED,
    );
  }
}
