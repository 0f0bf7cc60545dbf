import { knownError } from "../../errors/known-error.ts";

/**
 * POST /internal/rewrite-template-source: turns a template (variables declared with a schema, filled by the sender) into
 * a draft's standalone source (no variables to fill: the preview values become constants). The real service asks a
 * model to do it and checks the result; the emulator rewrites deterministically:
 * - the `EmailTemplate.PreviewVariables = …` statement goes, and its object becomes `const variables = …;` at the top
 *   of `EmailTemplate`'s body (with `variables` dropped from its parameters);
 * - each exported schema made with arktype's `type(…)` goes, and so does the arktype import;
 * - a template without a variables schema is returned as it is.
 * A source without an `EmailTemplate` function is TEMPLATE_SOURCE_REWRITE_ERROR.
 */

/** The index just past the bracket that closes the one at `open` (strings and template literals skipped), or -1. */
function closingIndex(source: string, open: number): number {
  const pairs: Record<string, string> = { "{": "}", "(": ")", "[": "]" };
  const stack: string[] = [];
  for (let i = open; i < source.length; i++) {
    const c = source[i]!;
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < source.length && source[i] !== c; i++) if (source[i] === "\\") i++;
      continue;
    }
    if (pairs[c]) stack.push(pairs[c]);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}

/** The end of the statement that starts at `start`: past its first top-level `;`, or the end of its line. */
function statementEnd(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    const c = source[i]!;
    if (c === "{" || c === "(" || c === "[" || c === '"' || c === "'" || c === "`") {
      const end = c === '"' || c === "'" || c === "`" ? closingQuote(source, i) : closingIndex(source, i);
      if (end < 0) return source.length;
      i = end - 1;
      continue;
    }
    if (c === ";") return i + 1;
    if (c === "\n" && !/^\s*(satisfies|as)\b/.test(source.slice(i + 1))) return i;
  }
  return source.length;
}

function closingQuote(source: string, open: number): number {
  const quote = source[open]!;
  for (let i = open + 1; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === quote) return i + 1;
  }
  return -1;
}

const fail = (error: string) => knownError("TEMPLATE_SOURCE_REWRITE_ERROR", { error });

export function rewriteTemplateSource(source: string): { tsx_source: string } {
  const fn = /export\s+function\s+EmailTemplate\s*\(/.exec(source);
  if (!fn) throw fail("The template has no exported EmailTemplate function.");
  const schemas = [...source.matchAll(/export\s+const\s+([A-Za-z_$][\w$]*)\s*=\s*type\s*\(/g)];
  if (schemas.length === 0 && !/\bvariablesSchema\b/.test(source)) return { tsx_source: source };

  let out = source;
  // The preview values, then the statement that set them.
  let preview = "{}";
  const previewAt = /EmailTemplate\.PreviewVariables\s*=\s*/.exec(out);
  if (previewAt) {
    const valueStart = previewAt.index + previewAt[0].length;
    if (out[valueStart] === "{") {
      const valueEnd = closingIndex(out, valueStart);
      if (valueEnd < 0) throw fail("EmailTemplate.PreviewVariables is not a complete object.");
      preview = out.slice(valueStart, valueEnd);
    }
    out = out.slice(0, previewAt.index) + out.slice(statementEnd(out, valueStart));
  }
  // The schemas (`export const X = type(…)`), and the names they had.
  for (
    let match = /export\s+const\s+([A-Za-z_$][\w$]*)\s*=\s*type\s*\(/.exec(out);
    match;
    match = /export\s+const\s+([A-Za-z_$][\w$]*)\s*=\s*type\s*\(/.exec(out)
  ) {
    out = out.slice(0, match.index) + out.slice(statementEnd(out, match.index + match[0].length - 1));
  }
  out = out.replace(/^\s*import\s*\{[^}]*\}\s*from\s*["']arktype["'];?[ \t]*\n?/m, "");
  out = out.replace(/^\s*export\s+const\s+variablesSchema\s*=.*$\n?/m, "");

  // `variables` becomes a constant inside the function.
  const head = /export\s+function\s+EmailTemplate\s*\(/.exec(out)!;
  const paramsOpen = head.index + head[0].length - 1;
  const paramsClose = closingIndex(out, paramsOpen);
  if (paramsClose < 0) throw fail("EmailTemplate's parameters are not complete.");
  const bodyOpen = out.indexOf("{", paramsClose);
  if (bodyOpen < 0) throw fail("EmailTemplate has no body.");
  const params = out
    .slice(paramsOpen, paramsClose)
    .replace(/\bvariables\b\s*,\s*|,\s*\bvariables\b(?!\s*:)/g, "")
    .replace(/\{\s*variables\s*\}/, "{}");
  const indent = "  ";
  out = `${out.slice(0, paramsOpen)}${params}${out.slice(paramsClose, bodyOpen + 1)}\n${indent}const variables = ${preview};${out.slice(bodyOpen + 1)}`;
  return { tsx_source: out.replace(/\n{3,}/g, "\n\n").trim() + "\n" };
}
