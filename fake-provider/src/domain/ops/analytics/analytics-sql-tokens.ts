/**
 * The words, numbers, quoted texts, `{name:Type}` parameters and symbols of an analytics query (analytics-sql.ts parses
 * them). Line and block comments are skipped; anything else is a syntax error with its position.
 */

import { SqlSyntaxError } from "./analytics-errors.ts";

export { SqlSyntaxError };

export type Token =
  | { type: "word"; text: string; at: number; end: number }
  | { type: "quoted"; text: string; at: number; end: number }
  | { type: "number"; value: number; at: number; end: number }
  | { type: "string"; value: string; at: number; end: number }
  | { type: "param"; name: string; paramType: string; at: number; end: number }
  | { type: "symbol"; text: string; at: number; end: number };

const TWO_CHARACTER_SYMBOLS = new Set(["<=", ">=", "!=", "<>", "=="]);
const ONE_CHARACTER_SYMBOLS = new Set(["=", "<", ">", "(", ")", "[", "]", ",", ".", "*", "+", "-", "/", "%", ";"]);
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// Character classes by code (a regular expression per character made a long query's tokenizing slow).
const isSpace = (code: number) =>
  code === 32 ||
  (code >= 9 && code <= 13) ||
  code === 0xa0 ||
  code === 0xfeff ||
  (code >= 0x2000 && code <= 0x200a) ||
  code === 0x2028 ||
  code === 0x2029 ||
  code === 0x3000 ||
  code === 0x1680 ||
  code === 0x202f ||
  code === 0x205f;
const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
const isDigit = (code: number) => code >= 48 && code <= 57;
const isWordPart = (code: number) => isLetter(code) || isDigit(code) || code === 36;
const isNumberPart = (code: number) => isDigit(code) || code === 46 || code === 69 || code === 101;

/** Reads what starts at `from` (a token, spaces or a comment), adding a token to `tokens`; the index after it. */
function readAt(text: string, from: number, tokens: Token[]): number {
  let i = from;
  const code = text.charCodeAt(i);
  const c = text[i]!;
  if (isSpace(code)) {
    i++;
  } else if (code === 45 && text.charCodeAt(i + 1) === 45) {
    const end = text.indexOf("\n", i);
    i = end < 0 ? text.length : end;
  } else if (code === 47 && text.charCodeAt(i + 1) === 42) {
    const end = text.indexOf("*/", i + 2);
    if (end < 0) throw new SqlSyntaxError(`Syntax error: unterminated comment at position ${i + 1}`);
    i = end + 2;
  } else if (isLetter(code)) {
    const start = i;
    while (i < text.length && isWordPart(text.charCodeAt(i))) i++;
    tokens.push({ type: "word", text: text.slice(start, i), at: start, end: i });
  } else if (isDigit(code)) {
    const start = i;
    while (i < text.length && isNumberPart(text.charCodeAt(i))) i++;
    const value = Number(text.slice(start, i));
    if (!Number.isFinite(value)) throw new SqlSyntaxError(`Syntax error: bad number at position ${start + 1}`);
    tokens.push({ type: "number", value, at: start, end: i });
  } else if (c === "'" || c === '"' || c === "`") {
    const start = i;
    const pieces: string[] = [];
    i++;
    for (;;) {
      // Up to the next quote or backslash in one step: a long literal is sliced, not built a character at a time.
      let stop = i;
      while (stop < text.length && text[stop] !== c && text[stop] !== "\\") stop++;
      if (stop > i) pieces.push(text.slice(i, stop));
      i = stop;
      if (i >= text.length) throw new SqlSyntaxError(`Syntax error: unterminated quoted text at position ${start + 1}`);
      if (text[i] === "\\" && i + 1 < text.length) {
        pieces.push(text[i + 1]!);
        i += 2;
      } else if (text[i] === "\\") {
        throw new SqlSyntaxError(`Syntax error: unterminated quoted text at position ${start + 1}`);
      } else if (text[i + 1] === c) {
        pieces.push(c);
        i += 2;
      } else {
        i++;
        break;
      }
    }
    const value = pieces.join("");
    tokens.push(
      c === "'" ? { type: "string", value, at: start, end: i } : { type: "quoted", text: value, at: start, end: i },
    );
  } else if (c === "{") {
    // {name:Type}, read by hand: a regular expression over the rest of the text could backtrack on a long one.
    const end = text.indexOf("}", i);
    const inside = end > 0 ? text.slice(i + 1, end) : "";
    const colon = inside.indexOf(":");
    const name = inside.slice(0, colon).trim();
    const paramType = inside.slice(colon + 1).trim();
    if (end < 0 || colon < 0 || inside.includes("{") || !PARAM_NAME.test(name) || paramType === "")
      throw new SqlSyntaxError(`Syntax error: bad query parameter at position ${i + 1}`);
    tokens.push({ type: "param", name, paramType, at: i, end: end + 1 });
    i = end + 1;
  } else {
    const two = text.slice(i, i + 2);
    const symbol = TWO_CHARACTER_SYMBOLS.has(two) ? two : ONE_CHARACTER_SYMBOLS.has(c) ? c : null;
    if (!symbol) throw new SqlSyntaxError(`Syntax error at position ${i + 1}: unexpected '${c}'`);
    tokens.push({ type: "symbol", text: symbol, at: i, end: i + symbol.length });
    i += symbol.length;
  }
  return i;
}

/** Characters read between two pauses of `tokenizeYielding`. */
const CHARACTERS_PER_PAUSE = 8_192;

/** The tokens of `text`, `pause` awaited every few thousand characters: a long query's text must not hold the thread. */
export async function tokenizeYielding(text: string, pause: () => Promise<void>): Promise<Token[]> {
  const tokens: Token[] = [];
  let paused = 0;
  for (let i = 0; i < text.length;) {
    i = readAt(text, i, tokens);
    if (i - paused >= CHARACTERS_PER_PAUSE) {
      paused = i;
      await pause();
    }
  }
  return tokens;
}
