/**
 * The words, numbers, quoted texts, `{name:Type}` parameters and symbols of an analytics query (analytics-sql.ts parses
 * them). Line and block comments are skipped; anything else is a syntax error with its position.
 */

export class SqlSyntaxError extends Error {}

export type Token =
  | { type: "word"; text: string; at: number; end: number }
  | { type: "quoted"; text: string; at: number; end: number }
  | { type: "number"; value: number; at: number; end: number }
  | { type: "string"; value: string; at: number; end: number }
  | { type: "param"; name: string; paramType: string; at: number; end: number }
  | { type: "symbol"; text: string; at: number; end: number };

const SYMBOLS = ["<=", ">=", "!=", "<>", "==", "=", "<", ">", "(", ")", ",", ".", "*", "+", "-", "/", ";"];

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (text.startsWith("--", i)) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) throw new SqlSyntaxError(`Syntax error: unterminated comment at position ${i + 1}`);
      i = end + 2;
    } else if (/[A-Za-z_]/.test(c)) {
      const start = i;
      while (i < text.length && /[A-Za-z0-9_$]/.test(text[i]!)) i++;
      tokens.push({ type: "word", text: text.slice(start, i), at: start, end: i });
    } else if (/[0-9]/.test(c)) {
      const start = i;
      while (i < text.length && /[0-9.eE]/.test(text[i]!)) i++;
      const value = Number(text.slice(start, i));
      if (!Number.isFinite(value)) throw new SqlSyntaxError(`Syntax error: bad number at position ${start + 1}`);
      tokens.push({ type: "number", value, at: start, end: i });
    } else if (c === "'" || c === '"' || c === "`") {
      const start = i;
      let value = "";
      i++;
      for (;;) {
        if (i >= text.length) throw new SqlSyntaxError(`Syntax error: unterminated quoted text at position ${start + 1}`);
        const d = text[i]!;
        if (d === "\\" && i + 1 < text.length) {
          value += text[i + 1]!;
          i += 2;
        } else if (d === c && text[i + 1] === c) {
          value += c;
          i += 2;
        } else if (d === c) {
          i++;
          break;
        } else {
          value += d;
          i++;
        }
      }
      tokens.push(c === "'" ? { type: "string", value, at: start, end: i } : { type: "quoted", text: value, at: start, end: i });
    } else if (c === "{") {
      const end = text.indexOf("}", i);
      const match = end > 0 ? /^\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^{}]+?)\s*\}$/.exec(text.slice(i, end + 1)) : null;
      if (!match) throw new SqlSyntaxError(`Syntax error: bad query parameter at position ${i + 1}`);
      tokens.push({ type: "param", name: match[1]!, paramType: match[2]!, at: i, end: end + 1 });
      i = end + 1;
    } else {
      const symbol = SYMBOLS.find((s) => text.startsWith(s, i));
      if (!symbol) throw new SqlSyntaxError(`Syntax error at position ${i + 1}: unexpected '${c}'`);
      tokens.push({ type: "symbol", text: symbol, at: i, end: i + symbol.length });
      i += symbol.length;
    }
  }
  return tokens;
}

