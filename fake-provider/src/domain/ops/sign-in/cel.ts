/**
 * A small evaluator for the subset of CEL (Common Expression Language) that sign-up rule conditions use: literals
 * (strings, numbers, booleans, null, lists), names and field access (`riskScores.bot`), `!`, unary `-`, `* / %`,
 * `+ -`, comparisons, `in`, `&&`, `||`, `?:`, parentheses, the string methods `contains`, `startsWith`, `endsWith`,
 * `matches` (a JavaScript regular expression, run in linear time: cel-regex.ts) and `size()`.
 *
 * Inside a string literal `\\` and `\"` (and `\'`) are escapes; any other backslash is kept as written, so a pattern
 * such as `"\d+"` or `"^\\w+@"` reaches `matches()` as the regular expression it reads as. Anything outside the subset,
 * a type mismatch or a bad pattern throws a CelError; a condition that is not a boolean is one too.
 */

import { compileMatchesPattern, InvalidPattern, type PatternTest } from "./cel-regex.ts";

export class CelError extends Error {
  override readonly name = "CelError";
}

type Value = string | number | boolean | null | readonly Value[] | { readonly [key: string]: Value };

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

type Node =
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

const typeOf = (v: Value) =>
  v === null ? "null" : Array.isArray(v) ? "list" : typeof v === "object" ? "map" : typeof v;

function equal(a: Value, b: Value): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]!));
  if (typeOf(a) !== typeOf(b)) return false;
  if (typeOf(a) === "map") {
    const ka = Object.keys(a as object);
    const mb = b as Record<string, Value>;
    return (
      ka.length === Object.keys(mb).length &&
      ka.every((k) => Object.hasOwn(mb, k) && equal((a as Record<string, Value>)[k]!, mb[k]!))
    );
  }
  return a === b;
}

function stringArg(name: string, args: Value[]): string {
  const [arg] = args;
  if (args.length !== 1 || typeof arg !== "string") throw new CelError(`${name}() takes one string`);
  return arg;
}

function callMethod(target: Value, name: string, args: Value[]): Value {
  if (name === "size" && args.length === 0) {
    if (typeof target === "string") return [...target].length;
    if (Array.isArray(target)) return target.length;
    if (typeOf(target) === "map") return Object.keys(target as object).length;
  }
  if (typeof target !== "string") throw new CelError(`no method ${name}() on ${typeOf(target)}`);
  switch (name) {
    case "contains":
      return target.includes(stringArg(name, args));
    case "startsWith":
      return target.startsWith(stringArg(name, args));
    case "endsWith":
      return target.endsWith(stringArg(name, args));
    case "matches": {
      const pattern = stringArg(name, args);
      let test: PatternTest;
      try {
        test = compileMatchesPattern(pattern);
      } catch (e) {
        if (!(e instanceof InvalidPattern)) throw e;
        test = null;
      }
      // Invalid for JavaScript (the real service's check), or beyond a linear-time engine (cel-regex.ts): one answer.
      if (test === null) throw new CelError(`Invalid regex pattern in matches(): "${pattern}"`);
      return test(target);
    }
    default:
      throw new CelError(`unknown method ${name}()`);
  }
}

function number(v: Value, op: string): number {
  if (typeof v !== "number") throw new CelError(`no such overload: ${typeOf(v)} ${op}`);
  return v;
}

function evaluate(node: Node, vars: Readonly<Record<string, Value>>): Value {
  switch (node.type) {
    case "lit":
      return node.value;
    case "name":
      if (!Object.hasOwn(vars, node.name)) throw new CelError(`undeclared reference to '${node.name}'`);
      return vars[node.name]!;
    case "list":
      return node.items.map((item) => evaluate(item, vars));
    case "field": {
      const target = evaluate(node.target, vars);
      if (typeOf(target) !== "map" || !Object.hasOwn(target as object, node.name))
        throw new CelError(`no such key: ${node.name}`);
      return (target as Record<string, Value>)[node.name]!;
    }
    case "index": {
      const target = evaluate(node.target, vars);
      const index = evaluate(node.index, vars);
      if (
        Array.isArray(target) &&
        typeof index === "number" &&
        Number.isInteger(index) &&
        index >= 0 &&
        index < target.length
      )
        return target[index]!;
      if (typeOf(target) === "map" && typeof index === "string" && Object.hasOwn(target as object, index))
        return (target as Record<string, Value>)[index]!;
      throw new CelError("invalid index");
    }
    case "call": {
      const args = node.args.map((a) => evaluate(a, vars));
      if (node.target === null) {
        if (node.name === "size" && args.length === 1) return callMethod(args[0]!, "size", []);
        throw new CelError(`unknown function ${node.name}()`);
      }
      return callMethod(evaluate(node.target, vars), node.name, args);
    }
    case "unary": {
      const v = evaluate(node.operand, vars);
      if (node.op === "!") {
        if (typeof v !== "boolean") throw new CelError(`no such overload: !${typeOf(v)}`);
        return !v;
      }
      return -number(v, "-");
    }
    case "cond": {
      const test = evaluate(node.test, vars);
      if (typeof test !== "boolean") throw new CelError("the condition of ?: must be a boolean");
      return evaluate(test ? node.then : node.else, vars);
    }
    case "binary":
      return binary(node.op, node.left, node.right, vars);
  }
}

function binary(op: string, leftNode: Node, rightNode: Node, vars: Readonly<Record<string, Value>>): Value {
  if (op === "&&" || op === "||") {
    // CEL's logical operators are commutative over errors: a decided side wins even if the other one fails.
    const side = (n: Node): boolean | CelError => {
      try {
        const v = evaluate(n, vars);
        return typeof v === "boolean" ? v : new CelError(`no such overload: ${typeOf(v)} ${op}`);
      } catch (e) {
        if (e instanceof CelError) return e;
        throw e;
      }
    };
    const decided = op === "||";
    const left = side(leftNode);
    if (left === decided) return decided;
    const right = side(rightNode);
    if (right === decided) return decided;
    if (left instanceof CelError) throw left;
    if (right instanceof CelError) throw right;
    return !decided;
  }
  const left = evaluate(leftNode, vars);
  const right = evaluate(rightNode, vars);
  switch (op) {
    case "==":
      return equal(left, right);
    case "!=":
      return !equal(left, right);
    case "in":
      if (Array.isArray(right)) return right.some((item) => equal(left, item));
      if (typeOf(right) === "map" && typeof left === "string") return Object.hasOwn(right as object, left);
      throw new CelError(`no such overload: ${typeOf(left)} in ${typeOf(right)}`);
    case "<":
    case "<=":
    case ">":
    case ">=": {
      const comparable =
        (typeof left === "number" && typeof right === "number") ||
        (typeof left === "string" && typeof right === "string");
      if (!comparable) throw new CelError(`no such overload: ${typeOf(left)} ${op} ${typeOf(right)}`);
      const l = left as number | string;
      const r = right as number | string;
      return op === "<" ? l < r : op === "<=" ? l <= r : op === ">" ? l > r : l >= r;
    }
    case "+":
      if (typeof left === "string" && typeof right === "string") return left + right;
      if (Array.isArray(left) && Array.isArray(right)) return [...left, ...right];
      return number(left, op) + number(right, op);
    case "-":
      return number(left, op) - number(right, op);
    case "*":
      return number(left, op) * number(right, op);
    case "/":
    case "%": {
      const divisor = number(right, op);
      if (divisor === 0) throw new CelError(op === "/" ? "division by zero" : "modulus by zero");
      return op === "/" ? number(left, op) / divisor : number(left, op) % divisor;
    }
    default:
      throw new CelError(`unknown operator ${op}`);
  }
}

/** Evaluates a condition over the variables; a result that is not a boolean is an error. */
export function evaluateCelCondition(expression: string, vars: Readonly<Record<string, Value>>): boolean {
  let result: Value;
  try {
    result = evaluate(new Parser(tokenize(expression)).parse(), vars);
  } catch (e) {
    if (e instanceof CelError && e.message.startsWith("Invalid regex pattern")) throw e;
    if (e instanceof CelError) throw new CelError(`Failed to evaluate CEL expression: ${expression}`);
    // A pathological expression (deep nesting) must not escape as anything but an evaluation error.
    if (e instanceof RangeError) throw new CelError(`Failed to evaluate CEL expression: ${expression}`);
    throw e;
  }
  if (typeof result !== "boolean")
    throw new CelError(`CEL expression must evaluate to a boolean, got ${typeOf(result)}: ${JSON.stringify(result)}`);
  return result;
}
