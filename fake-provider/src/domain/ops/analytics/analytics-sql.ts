/**
 * The query language of POST /internal/analytics/query, as far as the emulator serves it. The real service runs the
 * admin's text on ClickHouse (read-only, row policies per project); no JavaScript library parses ClickHouse's dialect,
 * and a general SQL engine would compile the admin's text to code. So this is a parser of the part of it the real
 * service's own callers use, read into plain data that analytics-evaluate.ts interprets:
 *
 *   [WITH name AS (SELECT …), …] SELECT expr [AS name], … | *  [FROM [db.]table | function(args) | (SELECT …) [[AS] alias]]
 *   [WHERE expr] [GROUP BY expr, …] [ORDER BY expr [ASC|DESC], …] [LIMIT n [OFFSET m] | LIMIT m, n]
 *   [UNION ALL SELECT …]… [SETTINGS name = value, …] [;] FORMAT JSONEachRow
 *
 * (the FORMAT is the one the service's client appends: analytics-statements.ts) with literals, arrays, `{name:Type}`
 * parameters, columns and JSON paths (`data.refresh_token_id`), `(SELECT …)` as a value or IN list, `= != <> < <= > >=`,
 * `AND OR NOT`, `[NOT] IN (…)`, `IS [NOT] NULL`, `[NOT] LIKE`, `+ - * / %` and function calls
 * (analytics-expressions.ts lists them). Anything else is a syntax error in ClickHouse's form (position, token, line
 * and column, the text from there), answered as ANALYTICS_QUERY_ERROR like any query ClickHouse refuses.
 *
 * Three files, one grammar: the token cursor and syntax errors (analytics-sql-cursor.ts), expressions
 * (analytics-sql-expr.ts), and statements here.
 */
import {
  checkAstBounds,
  type Expr,
  type JoinClause,
  type QueryStatement,
  type SelectItem,
  type SelectQuery,
  type TableRef,
  type UnionQuery,
} from "./analytics-sql-ast.ts";
import { CH, SqlSyntaxError } from "./analytics-errors.ts";
import { syntaxErrorAt } from "./analytics-sql-cursor.ts";
import { ExpressionParser } from "./analytics-sql-expr.ts";
import type { Token } from "./analytics-sql-tokens.ts";

export { SqlSyntaxError, syntaxErrorAt };

/** Words that end a table's name where an alias could follow: a JOIN's (`FROM a JOIN b ON …`). */
const JOIN_WORDS = new Set(["JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "OUTER", "ON", "USING"]);

/** The statement grammar: WITH, SELECT and its clauses, FROM's sources and JOINs, UNION ALL, SETTINGS, FORMAT. */
class Parser extends ExpressionParser {
  /** A whole statement: a query, its SETTINGS, the FORMAT the service's client appends, nothing after. */
  statement(): QueryStatement {
    const query = this.union();
    const settings: string[] = [];
    if (this.isWord("SETTINGS")) {
      do {
        this.position++;
        settings.push(this.identifier());
        this.expectSymbol("=");
        this.primary();
      } while (this.isSymbol(","));
    }
    const semicolon = this.peek();
    if (semicolon?.type === "symbol" && semicolon.text === ";" && this.peek(1))
      throw syntaxErrorAt(this.text, semicolon.at, null, "", " (Multi-statements are not allowed)");
    if (this.isSymbol(";")) this.position++;
    if (this.isWord("FORMAT")) {
      this.position++;
      this.identifier();
    }
    if (this.peek()) this.fail("end of query");
    return { query, settings };
  }

  /** SELECTs joined by UNION ALL. */
  private union(): UnionQuery {
    const selects = [this.select()];
    while (this.isWord("UNION")) {
      this.position++;
      if (this.isWord("ALL") || this.isWord("DISTINCT")) this.position++;
      selects.push(this.select());
    }
    return { selects };
  }

  private select(): SelectQuery {
    const ctes: SelectQuery["with"] = [];
    if (this.isWord("WITH")) {
      do {
        this.position++;
        const name = this.identifier();
        this.expectWord("AS");
        ctes.push({ name, query: this.parenthesisedQuery() });
      } while (this.isSymbol(","));
    }
    this.expectWord("SELECT");
    if (this.isWord("DISTINCT"))
      throw new SqlSyntaxError("authsim's analytics emulation does not support SELECT DISTINCT", CH.NOT_IMPLEMENTED);
    let items: SelectItem[] | "*";
    if (this.isSymbol("*")) {
      this.position++;
      items = "*";
    } else {
      items = [this.selectItem()];
      while (this.isSymbol(",")) {
        this.position++;
        items.push(this.selectItem());
      }
    }
    let from: SelectQuery["from"] = null;
    const joins: JoinClause[] = [];
    if (this.isWord("FROM")) {
      this.position++;
      from = this.tableRef();
      for (let join = this.joinKind(); join; join = this.joinKind()) joins.push(this.joinClause(join));
    }
    let where: Expr | null = null;
    if (this.isWord("WHERE")) {
      this.position++;
      where = this.expr();
    }
    const groupBy: Expr[] = [];
    if (this.isWord("GROUP")) {
      this.position++;
      this.expectWord("BY");
      groupBy.push(this.expr());
      while (this.isSymbol(",")) {
        this.position++;
        groupBy.push(this.expr());
      }
    }
    const orderBy: SelectQuery["orderBy"] = [];
    if (this.isWord("ORDER")) {
      this.position++;
      this.expectWord("BY");
      do {
        if (orderBy.length > 0) this.position++;
        const expr = this.expr();
        let descending = false;
        if (this.isWord("DESC") || this.isWord("ASC")) {
          descending = this.isWord("DESC");
          this.position++;
        }
        orderBy.push({ expr, descending });
      } while (this.isSymbol(","));
    }
    let limit: number | null = null;
    let offset = 0;
    if (this.isWord("LIMIT")) {
      this.position++;
      limit = this.count();
      if (this.isSymbol(",")) {
        // LIMIT offset, count
        this.position++;
        offset = limit;
        limit = this.count();
      } else if (this.isWord("OFFSET")) {
        this.position++;
        offset = this.count();
      }
    }
    return { with: ctes, items, from, joins, where, groupBy, orderBy, limit, offset };
  }

  /** The kind of the JOIN that starts here (its words read up to JOIN), or null when none does. */
  private joinKind(): JoinClause["kind"] | null {
    const at = this.position;
    let kind: JoinClause["kind"] = "INNER";
    if (this.isWord("INNER")) this.position++;
    else if (this.isWord("CROSS")) [kind, this.position] = ["CROSS", this.position + 1];
    else if (this.isWord("LEFT")) {
      kind = "LEFT";
      this.position += this.isWord("OUTER", 1) ? 2 : 1;
    } else if ((this.isWord("RIGHT") || this.isWord("FULL")) && (this.isWord("JOIN", 1) || this.isWord("OUTER", 1)))
      throw new SqlSyntaxError(
        `authsim's analytics emulation does not support ${this.isWord("RIGHT") ? "RIGHT" : "FULL"} JOIN (it serves INNER, LEFT and CROSS)`,
        CH.NOT_IMPLEMENTED,
      );
    if (this.isWord("JOIN")) {
      this.position++;
      return kind;
    }
    if (this.position !== at) this.fail("JOIN");
    return null;
  }

  /** The joined table and its condition: `ON expr` or `USING (a, b)` / `USING a, b`; nothing after CROSS JOIN. */
  private joinClause(kind: JoinClause["kind"]): JoinClause {
    const ref = this.tableRef();
    if (kind === "CROSS") return { kind, ref, on: null, using: [] };
    if (this.isWord("ON")) {
      this.position++;
      return { kind, ref, on: this.expr(), using: [] };
    }
    this.expectWord("USING");
    const parenthesised = this.isSymbol("(");
    if (parenthesised) this.position++;
    const using = [this.identifier()];
    while (this.isSymbol(",")) {
      this.position++;
      using.push(this.identifier());
    }
    if (parenthesised) this.expectSymbol(")");
    return { kind, ref, on: null, using };
  }

  /** `(SELECT …)`, one level deeper. */
  protected parenthesisedQuery(): UnionQuery {
    this.expectSymbol("(");
    const query = this.nested(() => this.union());
    this.expectSymbol(")");
    return query;
  }

  /** A FROM's source: `[db.]table`, `function(args)` or `(SELECT …)`, with an optional alias. */
  private tableRef(): TableRef {
    let ref: TableRef;
    if (this.isSymbol("(")) {
      ref = { kind: "subquery", query: this.parenthesisedQuery(), alias: null };
    } else if (
      this.peek()?.type === "word" &&
      this.peek(1)?.type === "symbol" &&
      (this.peek(1) as { text: string }).text === "("
    ) {
      const name = this.identifier();
      ref = { kind: "function", name, args: this.callArguments(), alias: null };
    } else {
      const first = this.identifier();
      if (this.isSymbol(".")) {
        this.position++;
        ref = { kind: "table", database: first, table: this.identifier(), alias: null };
      } else {
        ref = { kind: "table", database: null, table: first, alias: null };
      }
    }
    if (this.isWord("FINAL")) this.position++;
    if (this.isWord("AS")) {
      this.position++;
      ref.alias = this.identifier();
    } else if (this.isPlainIdentifier() && !JOIN_WORDS.has((this.peek() as { text: string }).text.toUpperCase())) {
      ref.alias = this.identifier();
    }
    return ref;
  }

  private count(): number {
    const token = this.peek();
    if (token?.type !== "number" || !Number.isInteger(token.value) || token.value < 0)
      return this.fail("a non-negative integer");
    this.position++;
    return token.value;
  }

  private selectItem(): SelectItem {
    const start = this.peek()?.at ?? this.text.length;
    const expr = this.expr();
    const end = this.tokens[this.position - 1]?.end ?? start;
    if (this.isWord("AS")) {
      this.position++;
      return { expr, name: this.identifier() };
    }
    if (this.isPlainIdentifier()) return { expr, name: this.identifier() };
    return { expr, name: expr.kind === "column" ? expr.path.join(".") : this.text.slice(start, end) };
  }
}

/**
 * Parses a SELECT statement (WITH, UNION ALL, subqueries, SETTINGS) from its tokens (analytics-sql-tokens.ts, read
 * in slices by the caller, after checkQuerySize); throws SqlSyntaxError with ClickHouse's message otherwise. `text` is
 * the statement as ClickHouse receives it (analytics-statements.ts: with the FORMAT the client appends).
 */
export function parseTokens(text: string, tokens: Token[]): QueryStatement {
  const statement = new Parser(text, tokens).statement();
  checkAstBounds(statement.query);
  return statement;
}
