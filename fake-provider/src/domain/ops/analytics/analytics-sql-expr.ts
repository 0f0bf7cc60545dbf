import type { Expr, UnionQuery } from "./analytics-sql-ast.ts";
import { TokenCursor } from "./analytics-sql-cursor.ts";

/**
 * The analytics parser's expressions, by precedence: OR, AND, NOT, comparisons (IN, LIKE, ILIKE, IS NULL), `+ -`,
 * `* / %`, then literals, parameters, calls (CAST's AS form too), arrays, columns and JSON paths, and `(SELECT …)`,
 * whose query the statement grammar (analytics-sql.ts) reads.
 */
export abstract class ExpressionParser extends TokenCursor {
  /** `(SELECT …)`: a subquery as a value or an IN list. */
  protected abstract parenthesisedQuery(): UnionQuery;

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
  protected callArguments(): Expr[] {
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

  protected primary(): Expr {
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
