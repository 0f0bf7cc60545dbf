/**
 * A small evaluator for the subset of CEL (Common Expression Language) that sign-up rule conditions use: literals
 * (strings, numbers, booleans, null, lists), names and field access (`riskScores.bot`), `!`, unary `-`, `* / %`,
 * `+ -`, comparisons, `in`, `&&`, `||`, `?:`, parentheses, the string methods `contains`, `startsWith`, `endsWith`,
 * `matches` (a JavaScript regular expression, run in linear time: cel-regex.ts) and `size()`.
 *
 * Parsing is in cel-parse.ts. Anything outside the subset, a type mismatch or a bad pattern throws a CelError; a
 * condition that is not a boolean is one too.
 */

import { CelError, parseCel, type Node, type Value } from "./cel-parse.ts";
import { compileMatchesPattern, InvalidPattern, type PatternTest } from "./cel-regex.ts";

export { CelError };

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
    result = evaluate(parseCel(expression), vars);
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
