import { CH, SqlSyntaxError } from "./analytics-errors.ts";
import type { Token } from "./analytics-sql-tokens.ts";

/**
 * The analytics parser's footing (analytics-sql.ts): a cursor over the statement's tokens, ClickHouse's reserved words,
 * its syntax errors, and the nesting bound. The expression grammar (analytics-sql-expr.ts) and the statement grammar
 * (analytics-sql.ts) stand on it.
 */

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

export abstract class TokenCursor {
  protected position = 0;
  private depth = 0;
  constructor(
    protected readonly text: string,
    protected readonly tokens: Token[],
  ) {}

  protected peek(offset = 0): Token | undefined {
    return this.tokens[this.position + offset];
  }

  protected isWord(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.type === "word" && token.text.toUpperCase() === word;
  }

  protected isSymbol(symbol: string): boolean {
    const token = this.peek();
    return token?.type === "symbol" && token.text === symbol;
  }

  protected fail(expected: string): never {
    const token = this.peek();
    const at = token?.at ?? this.text.length;
    const shown =
      token && !(token.type === "symbol" && token.text === ";") ? this.text.slice(token.at, token.end) : null;
    throw syntaxErrorAt(this.text, at, shown, `Expected ${expected}`);
  }

  protected expectWord(word: string): void {
    if (!this.isWord(word)) this.fail(word);
    this.position++;
  }

  protected expectSymbol(symbol: string): void {
    if (!this.isSymbol(symbol)) this.fail(`'${symbol}'`);
    this.position++;
  }

  protected identifier(): string {
    const token = this.peek();
    if (token?.type === "quoted" || (token?.type === "word" && !RESERVED.has(token.text.toUpperCase()))) {
      this.position++;
      return token.type === "quoted" ? token.text : token.text;
    }
    return this.fail("identifier");
  }

  protected isPlainIdentifier(): boolean {
    const next = this.peek();
    return next?.type === "quoted" || (next?.type === "word" && !RESERVED.has(next.text.toUpperCase()));
  }

  /** Parses what `parse` reads one level deeper, refusing a nesting past the parser's bound. */
  protected nested<T>(parse: () => T): T {
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
