/**
 * Parsing for cel.ts's subset of CEL: tokens, then a syntax tree by precedence climbing. Kept apart from evaluation so
 * each reads on its own; a syntax error is a CelError, as an evaluation error is.
 *
 * Inside a string literal `\\` and `\"` (and `\'`) are escapes; any other backslash is kept as written, so a pattern
 * such as `"\d+"` or `"^\\w+@"` reaches `matches()` as the regular expression it reads as.
 */

export class CelError extends Error {
  override readonly name = "CelError";
}

export type Value = string | number | boolean | null | readonly Value[] | { readonly [key: string]: Value };

type Token =
  | { kind: "str"; value: string }
  | { kind: "num"; value: number }
  | { kind: "id"; value: string }
  | { kind: "op"; value: string };

const operators = [
  "&&",
  "||",
  "==",
  "!=",
  "<=",
  ">=",
  "<",
  ">",
  "!",
  "(",
  ")",
  "[",
  "]",
  ",",
  ".",
  "?",
  ":",
  "+",
  "-",
  "*",
  "/",
  "%",
];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let value = "";
      i++;
      for (;;) {
        if (i >= source.length) throw new CelError("unterminated string literal");
        const d = source[i]!;
        if (d === c) break;
        if (d === "\\" && i + 1 < source.length) {
          const e = source[i + 1]!;
          value += e === "\\" || e === '"' || e === "'" ? e : `\\${e}`;
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      i++;
      tokens.push({ kind: "str", value });
      continue;
    }
    const number = /^(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?[uU]?/.exec(source.slice(i));
    if (number && /[\d.]/.test(c)) {
      tokens.push({ kind: "num", value: Number(number[0].replace(/[uU]$/, "")) });
      i += number[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i));
    if (ident) {
      tokens.push({ kind: "id", value: ident[0] });
      i += ident[0].length;
      continue;
    }
    const op = operators.find((o) => source.startsWith(o, i));
    if (!op) throw new CelError(`unexpected character ${JSON.stringify(c)}`);
    tokens.push({ kind: "op", value: op });
    i += op.length;
  }
  return tokens;
}

export type Node =
  | { type: "lit"; value: Value }
  | { type: "name"; name: string }
  | { type: "list"; items: Node[] }
  | { type: "field"; target: Node; name: string }
  | { type: "index"; target: Node; index: Node }
  | { type: "call"; target: Node | null; name: string; args: Node[] }
  | { type: "unary"; op: string; operand: Node }
  | { type: "binary"; op: string; left: Node; right: Node }
  | { type: "cond"; test: Node; then: Node; else: Node };

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Node {
    const node = this.conditional();
    if (this.pos < this.tokens.length) throw new CelError("unexpected input after the expression");
    return node;
  }

  private peekOp(...ops: string[]): string | null {
    const t = this.tokens[this.pos];
    return t?.kind === "op" && ops.includes(t.value)
      ? t.value
      : t?.kind === "id" && t.value === "in" && ops.includes("in")
        ? "in"
        : null;
  }

  private expect(op: string): void {
    if (this.peekOp(op) === null) throw new CelError(`expected ${JSON.stringify(op)}`);
    this.pos++;
  }

  private conditional(): Node {
    const test = this.binary(0);
    if (this.peekOp("?") === null) return test;
    this.pos++;
    const then = this.conditional();
    this.expect(":");
    return { type: "cond", test, then, else: this.conditional() };
  }

  private static readonly levels: readonly (readonly string[])[] = [
    ["||"],
    ["&&"],
    ["==", "!=", "<", "<=", ">", ">=", "in"],
    ["+", "-"],
    ["*", "/", "%"],
  ];

  private binary(level: number): Node {
    if (level >= Parser.levels.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const op = this.peekOp(...Parser.levels[level]!);
      if (op === null) return left;
      this.pos++;
      left = { type: "binary", op, left, right: this.binary(level + 1) };
    }
  }

  private unary(): Node {
    const op = this.peekOp("!", "-");
    if (op !== null) {
      this.pos++;
      return { type: "unary", op, operand: this.unary() };
    }
    return this.member();
  }

  private args(): Node[] {
    this.expect("(");
    const args: Node[] = [];
    if (this.peekOp(")") === null) {
      do args.push(this.conditional());
      while (this.peekOp(",") !== null && ++this.pos);
    }
    this.expect(")");
    return args;
  }

  private member(): Node {
    let node = this.primary();
    for (;;) {
      if (this.peekOp(".") !== null) {
        this.pos++;
        const t = this.tokens[this.pos++];
        if (t?.kind !== "id") throw new CelError("expected a field name after '.'");
        node =
          this.peekOp("(") !== null
            ? { type: "call", target: node, name: t.value, args: this.args() }
            : { type: "field", target: node, name: t.value };
      } else if (this.peekOp("[") !== null) {
        this.pos++;
        const index = this.conditional();
        this.expect("]");
        node = { type: "index", target: node, index };
      } else return node;
    }
  }

  private primary(): Node {
    const t = this.tokens[this.pos++];
    if (!t) throw new CelError("unexpected end of the expression");
    if (t.kind === "str" || t.kind === "num") return { type: "lit", value: t.value };
    if (t.kind === "id") {
      if (t.value === "true" || t.value === "false") return { type: "lit", value: t.value === "true" };
      if (t.value === "null") return { type: "lit", value: null };
      if (this.peekOp("(") !== null) return { type: "call", target: null, name: t.value, args: this.args() };
      return { type: "name", name: t.value };
    }
    if (t.value === "(") {
      const inner = this.conditional();
      this.expect(")");
      return inner;
    }
    if (t.value === "[") {
      const items: Node[] = [];
      if (this.peekOp("]") === null) {
        do items.push(this.conditional());
        while (this.peekOp(",") !== null && ++this.pos);
      }
      this.expect("]");
      return { type: "list", items };
    }
    throw new CelError(`unexpected ${JSON.stringify(t.value)}`);
  }
}

/** The syntax tree of one expression. */
export const parseCel = (source: string): Node => new Parser(tokenize(source)).parse();
