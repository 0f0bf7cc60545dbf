/**
 * The query language of POST /internal/analytics/query, as far as the emulator serves it. The real service runs the
 * admin's text on ClickHouse (read-only, row policies per project); no JavaScript library parses ClickHouse's dialect,
 * and a general SQL engine would compile the admin's text to code. So this is a small parser of the part of it the
 * real service's own callers use, read into plain data that domain/ops/analytics/analytics-evaluate.ts interprets:
 *
 *   SELECT expr [AS name], … | *  [FROM [db.]table]  [WHERE expr]  [GROUP BY expr, …]  [ORDER BY expr [ASC|DESC], …]
 *   [LIMIT n [OFFSET m]] [;]
 *
 * with literals, `{name:Type}` parameters, columns and JSON paths (`data.refresh_token_id`), `= != <> < <= > >=`,
 * `AND OR NOT`, `[NOT] IN (…)`, `IS [NOT] NULL`, `[NOT] LIKE`, `+ - * /` and function calls (analytics-evaluate.ts lists them).
 * Anything else is a syntax error, answered as ANALYTICS_QUERY_ERROR like any query ClickHouse refuses.
 */
import { checkAstBounds, type Expr, type SelectItem, type SelectQuery } from "./analytics-sql-ast.ts";
import { SqlSyntaxError, type Token } from "./analytics-sql-tokens.ts";

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
  "BY",
  "ASC",
  "DESC",
  "SETTINGS",
  "FORMAT",
  "UNION",
  "SELECT",
]);

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
    const where = token ? `position ${token.at + 1} ('${this.text.slice(token.at, token.end)}')` : "end of query";
    throw new SqlSyntaxError(`Syntax error: failed at ${where}: expected ${expected}`);
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

  query(): SelectQuery {
    this.expectWord("SELECT");
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
    if (this.isWord("FROM")) {
      this.position++;
      const first = this.identifier();
      if (this.isSymbol(".")) {
        this.position++;
        from = { database: first, table: this.identifier() };
      } else {
        from = { database: null, table: first };
      }
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
    if (this.isSymbol(";")) this.position++;
    if (this.peek()) this.fail("end of query");
    return { items, from, where, groupBy, orderBy, limit, offset };
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
    const negated = this.isWord("NOT") && (this.isWord("IN", 1) || this.isWord("LIKE", 1));
    if (negated) this.position++;
    if (this.isWord("IN")) {
      this.position++;
      this.expectSymbol("(");
      const list = [this.listItem()];
      while (this.isSymbol(",")) {
        this.position++;
        list.push(this.listItem());
      }
      this.expectSymbol(")");
      return { kind: "in", negated, operand: left, list };
    }
    if (this.isWord("LIKE")) {
      this.position++;
      const like: Expr = { kind: "binary", op: "LIKE", left, right: this.additive() };
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
    return this.leftAssociative(["*", "/"], () => this.primary());
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
      this.position++;
      if (this.isWord("SELECT")) throw new SqlSyntaxError("authsim's analytics emulation does not support subqueries");
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
      this.position += 2;
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
      return { kind: "call", name: token.text, args };
    }
    const path = [this.identifier()];
    while (this.isSymbol(".")) {
      this.position++;
      path.push(this.identifier());
    }
    return { kind: "column", path };
  }
}

const WRITING_STATEMENTS = new Set([
  "INSERT",
  "CREATE",
  "DROP",
  "ALTER",
  "TRUNCATE",
  "DELETE",
  "UPDATE",
  "GRANT",
  "REVOKE",
  "KILL",
  "SYSTEM",
  "SET",
  "RENAME",
  "OPTIMIZE",
  "ATTACH",
  "DETACH",
  "EXCHANGE",
  "UNDROP",
  "BACKUP",
  "RESTORE",
]);

/**
 * Parses one SELECT statement of the subset above from its tokens (analytics-sql-tokens.ts, read in slices by the
 * caller, after checkQuerySize); throws SqlSyntaxError with a ClickHouse-like message otherwise.
 */
export function parseTokens(text: string, tokens: Token[]): SelectQuery {
  if (tokens.length === 0) throw new SqlSyntaxError("Syntax error: empty query");
  const first = tokens[0]!;
  if (first.type === "word" && WRITING_STATEMENTS.has(first.text.toUpperCase())) {
    // Read-only, as the real service's readonly=1 setting makes it.
    throw new SqlSyntaxError(
      `Cannot execute query in readonly mode: authsim's analytics emulation runs SELECT statements only (got ${first.text.toUpperCase()})`,
    );
  }
  const query = new Parser(text, tokens).query();
  checkAstBounds(query);
  return query;
}
