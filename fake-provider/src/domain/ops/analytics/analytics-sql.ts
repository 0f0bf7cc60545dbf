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
import type { Token } from "./analytics-sql-tokens.ts";

export { SqlSyntaxError };

/**
 * Nesting the parser follows (parentheses, NOT, unary minus, function arguments) before refusing the text: keeps a
 * hostile query from exhausting the stack, as ClickHouse's max_parser_depth does.
 */
const MAX_PARSER_DEPTH = 256;

const RESERVED = new Set([
  "FROM",
  "WHERE",
  "GROUP",
  "ORDER",
  "LIMIT",
  "OFFSET",
  "AS",
  "AND",
  "OR",
  "NOT",
  "IN",
  "IS",
  "LIKE",
  "ILIKE",
  "BY",
  "ASC",
  "DESC",
  "SETTINGS",
  "FORMAT",
  "UNION",
  "SELECT",
  "WITH",
  "FINAL",
  "ALL",
]);

/** Words that end a table's name where an alias could follow: a JOIN's (`FROM a JOIN b ON …`). */
const JOIN_WORDS = new Set(["JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "OUTER", "ON", "USING"]);

class Parser {
  private position = 0;
  private depth = 0;
  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
  ) {}

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.position + offset];
  }

  private isWord(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.type === "word" && token.text.toUpperCase() === word;
  }

  private isSymbol(symbol: string): boolean {
    const token = this.peek();
    return token?.type === "symbol" && token.text === symbol;
  }

  private fail(expected: string): never {
    const token = this.peek();
    const at = token?.at ?? this.text.length;
    const shown =
      token && !(token.type === "symbol" && token.text === ";") ? this.text.slice(token.at, token.end) : null;
    throw syntaxErrorAt(this.text, at, shown, `Expected ${expected}`);
  }

  private expectWord(word: string): void {
    if (!this.isWord(word)) this.fail(word);
    this.position++;
  }

  private expectSymbol(symbol: string): void {
    if (!this.isSymbol(symbol)) this.fail(`'${symbol}'`);
    this.position++;
  }

  private identifier(): string {
    const token = this.peek();
    if (token?.type === "quoted" || (token?.type === "word" && !RESERVED.has(token.text.toUpperCase()))) {
      this.position++;
      return token.type === "quoted" ? token.text : token.text;
    }
    return this.fail("identifier");
  }

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
  private parenthesisedQuery(): UnionQuery {
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

  private isPlainIdentifier(): boolean {
    const next = this.peek();
    return next?.type === "quoted" || (next?.type === "word" && !RESERVED.has(next.text.toUpperCase()));
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
    const next = this.peek();
    if (next?.type === "quoted" || (next?.type === "word" && !RESERVED.has(next.text.toUpperCase())))
      return { expr, name: this.identifier() };
    return { expr, name: expr.kind === "column" ? expr.path.join(".") : this.text.slice(start, end) };
  }

  /** Parses what `parse` reads one level deeper, refusing a nesting past the parser's bound. */
  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_PARSER_DEPTH)
      throw new SqlSyntaxError(
        `Maximum parse depth (${MAX_PARSER_DEPTH}) exceeded. Consider rising max_parser_depth parameter.`,
        CH.TOO_DEEP_RECURSION,
      );
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  expr(): Expr {
    return this.nested(() => this.logical("OR", () => this.logical("AND", () => this.not())));
  }

  private logical(op: "AND" | "OR", operand: () => Expr): Expr {
    const first = operand();
    if (!this.isWord(op)) return first;
    const operands = [first];
    while (this.isWord(op)) {
      this.position++;
      operands.push(operand());
    }
    return { kind: "logical", op, operands };
  }

  private not(): Expr {
    if (this.isWord("NOT")) {
      this.position++;
      return this.nested(() => ({ kind: "unary", op: "NOT", operand: this.not() }));
    }
    return this.comparison();
  }

  private comparison(): Expr {
    const left = this.additive();
    const token = this.peek();
    if (token?.type === "symbol" && ["=", "==", "!=", "<>", "<", "<=", ">", ">="].includes(token.text)) {
      this.position++;
      const op = token.text === "==" ? "=" : token.text === "<>" ? "!=" : token.text;
      return { kind: "binary", op, left, right: this.additive() };
    }
    const negated = this.isWord("NOT") && (this.isWord("IN", 1) || this.isWord("LIKE", 1) || this.isWord("ILIKE", 1));
    if (negated) this.position++;
    if (this.isWord("IN")) {
      this.position++;
      if (this.isSymbol("(") && (this.isWord("SELECT", 1) || this.isWord("WITH", 1)))
        return { kind: "in", negated, operand: left, list: [{ kind: "subquery", query: this.parenthesisedQuery() }] };
      this.expectSymbol("(");
      const list = [this.listItem()];
      while (this.isSymbol(",")) {
        this.position++;
        list.push(this.listItem());
      }
      this.expectSymbol(")");
      return { kind: "in", negated, operand: left, list };
    }
    if (this.isWord("LIKE") || this.isWord("ILIKE")) {
      const op = this.isWord("LIKE") ? "LIKE" : "ILIKE";
      this.position++;
      const like: Expr = { kind: "binary", op, left, right: this.additive() };
      return negated ? { kind: "unary", op: "NOT", operand: like } : like;
    }
    if (this.isWord("IS")) {
      this.position++;
      const isNot = this.isWord("NOT");
      if (isNot) this.position++;
      this.expectWord("NULL");
      return { kind: "isNull", negated: isNot, operand: left };
    }
    return left;
  }

  /** An IN list's item: a lone literal read at once (a list of many is the common long query), else an expression. */
  private listItem(): Expr {
    const token = this.peek();
    const after = this.peek(1);
    if (
      (token?.type === "string" || token?.type === "number") &&
      after?.type === "symbol" &&
      (after.text === "," || after.text === ")")
    ) {
      this.position++;
      return { kind: "literal", value: token.value };
    }
    return this.expr();
  }

  /** One level of left-associative binary operators (`a + b - c`), each operand parsed by `operand`. */
  private leftAssociative(operators: readonly string[], operand: () => Expr): Expr {
    let left = operand();
    for (let op = this.symbolAmong(operators); op !== null; op = this.symbolAmong(operators)) {
      this.position++;
      left = { kind: "binary", op, left, right: operand() };
    }
    return left;
  }

  private symbolAmong(operators: readonly string[]): string | null {
    const token = this.peek();
    return token?.type === "symbol" && operators.includes(token.text) ? token.text : null;
  }

  private additive(): Expr {
    return this.leftAssociative(["+", "-"], () => this.multiplicative());
  }

  private multiplicative(): Expr {
    return this.leftAssociative(["*", "/", "%"], () => this.primary());
  }

  /** `(a, b, …)` after a function's name; `*` alone as in count(*). */
  private callArguments(): Expr[] {
    this.expectSymbol("(");
    const args: Expr[] = [];
    if (!this.isSymbol(")")) {
      if (this.isSymbol("*")) {
        this.position++;
        args.push({ kind: "star" });
      } else {
        args.push(this.expr());
      }
      while (this.isSymbol(",")) {
        this.position++;
        args.push(this.expr());
      }
    }
    this.expectSymbol(")");
    return args;
  }

  /**
   * CAST's arguments: `(x, 'Type')` as any call's, or `(x AS Type)`, whose type (words and parentheses, as in
   * `Nullable(String)`) is read back into the text the comma form would have named.
   */
  private castArguments(): Expr[] {
    const start = this.position;
    this.expectSymbol("(");
    const value = this.expr();
    if (!this.isWord("AS")) {
      this.position = start;
      return this.callArguments();
    }
    this.position++;
    let type = "";
    let depth = 0;
    for (;;) {
      const token = this.peek();
      if (!token) return this.fail("a type");
      if (token.type === "symbol" && token.text === ")" && depth === 0) break;
      if (token.type === "symbol" && token.text === "(") depth++;
      if (token.type === "symbol" && token.text === ")") depth--;
      if (token.type === "quoted" || token.type === "param") return this.fail("a type");
      type += token.type === "number" ? String(token.value) : token.type === "string" ? `'${token.value}'` : token.text;
      this.position++;
    }
    if (type === "") return this.fail("a type");
    this.expectSymbol(")");
    return [value, { kind: "literal", value: type }];
  }

  private primary(): Expr {
    const token = this.peek();
    if (!token) return this.fail("an expression");
    if (token.type === "number") {
      this.position++;
      return { kind: "literal", value: token.value };
    }
    if (token.type === "string") {
      this.position++;
      return { kind: "literal", value: token.value };
    }
    if (token.type === "param") {
      this.position++;
      return { kind: "param", name: token.name, type: token.paramType };
    }
    if (token.type === "symbol" && token.text === "-") {
      this.position++;
      return this.nested(() => ({ kind: "unary", op: "-", operand: this.primary() }));
    }
    if (token.type === "symbol" && token.text === "(") {
      if (this.isWord("SELECT", 1) || this.isWord("WITH", 1))
        return { kind: "subquery", query: this.parenthesisedQuery() };
      this.position++;
      const inner = this.expr();
      this.expectSymbol(")");
      return inner;
    }
    if (token.type === "word" && ["NULL", "TRUE", "FALSE"].includes(token.text.toUpperCase())) {
      this.position++;
      const upper = token.text.toUpperCase();
      return { kind: "literal", value: upper === "NULL" ? null : upper === "TRUE" };
    }
    if (token.type === "word" && this.peek(1)?.type === "symbol" && (this.peek(1) as { text: string }).text === "(") {
      this.position++;
      if (token.text.toUpperCase() === "CAST") return { kind: "call", name: token.text, args: this.castArguments() };
      return { kind: "call", name: token.text, args: this.callArguments() };
    }
    if (token.type === "symbol" && token.text === "[") {
      this.position++;
      const items: Expr[] = [];
      if (!this.isSymbol("]")) {
        items.push(this.expr());
        while (this.isSymbol(",")) {
          this.position++;
          items.push(this.expr());
        }
      }
      this.expectSymbol("]");
      return { kind: "array", items };
    }
    const path = [this.identifier()];
    while (this.isSymbol(".")) {
      this.position++;
      path.push(this.identifier());
    }
    return { kind: "column", path };
  }
}

/**
 * ClickHouse's syntax error: where it failed (1-based position, the token or "end of query", line and column) and the
 * text from there on, then what it expected. `note` names a rule (" (Multi-statements are not allowed)").
 */
export function syntaxErrorAt(
  text: string,
  at: number,
  token: string | null,
  expected: string,
  note = "",
): SqlSyntaxError {
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  const column = at - before.lastIndexOf("\n");
  return new SqlSyntaxError(
    `Syntax error${note}: failed at position ${at + 1} (${token ?? "end of query"}) (line ${line}, col ${column}): ${text.slice(at)}. ${expected}`,
  );
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
