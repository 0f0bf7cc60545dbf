/**
 * Bodies the real service checks against a union of object schemas (POST /emails/render-email, /emails/send-email).
 * When none matches, its SCHEMA_ERROR lists, per alternative, each field's problem (in the order of the field names)
 * and then the unknown properties; this module words them the same way (the lines go into api/http/parse.ts schemaError).
 */

/** A field's check: null when the value is fine, else the problem's wording after the field's path. */
export type FieldCheck = (value: unknown) => string | null;

export interface UnionAlternative {
  /** Every field the alternative knows; `required` ones must be present (not undefined). */
  fields: Record<string, { required?: boolean; check?: FieldCheck }>;
  /** The real service repeats the unknown-properties line for alternatives built by concatenating two schemas. */
  repeatUnknown?: boolean;
}

/** How the real service prints a value in a type error (simple values inline, others as indented JSON). */
function printSimple(value: unknown): string | null {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "string") return `"${value}"`;
  return null;
}

export function printValue(value: unknown): string {
  return printSimple(value) ?? JSON.stringify(value, (_key, v: unknown) => printSimple(v) ?? v, 2);
}

const typeError = (type: string, value: unknown) =>
  `must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;

export const isString: FieldCheck = (v) => (typeof v === "string" ? null : typeError("string", v));
export const isBoolean: FieldCheck = (v) => (typeof v === "boolean" ? null : typeError("boolean", v));
export const isNumber: FieldCheck = (v) =>
  typeof v === "number" && Number.isFinite(v) ? null : typeError("number", v);
export const isObject: FieldCheck = (v) =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? null : typeError("object", v);
export const isArray: FieldCheck = (v) => (Array.isArray(v) ? null : typeError("array", v));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid: FieldCheck = (v) => isString(v) ?? (UUID.test(v as string) ? null : "must be a valid UUID");
/** A theme choice: a UUID, null or false. */
export const isThemeChoice: FieldCheck = (v) =>
  v === null || v === false || (typeof v === "string" && UUID.test(v)) ? null : "is invalid";

function problemsOf(body: Record<string, unknown>, alternative: UnionAlternative): string[] {
  const fieldProblems: [string, string][] = [];
  for (const [name, spec] of Object.entries(alternative.fields)) {
    const value = body[name];
    if (value === undefined) {
      if (spec.required) fieldProblems.push([name, `body.${name} must be defined`]);
      continue;
    }
    const problem = spec.check?.(value) ?? null;
    if (problem !== null) fieldProblems.push([name, `body.${name} ${problem}`]);
  }
  fieldProblems.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const lines = fieldProblems.map(([, line]) => line);
  const unknown = Object.keys(body).filter((k) => body[k] !== undefined && !Object.hasOwn(alternative.fields, k));
  if (unknown.length > 0) {
    const line = `body contains unknown properties: ${unknown.join(", ")}`;
    lines.push(line);
    if (alternative.repeatUnknown) lines.push(line);
  }
  return lines;
}

/**
 * The index of the first alternative `body` matches, or the SCHEMA_ERROR problem lines when it matches none (a body
 * that is not an object is one line, as for any object schema).
 */
export function matchUnion(
  body: unknown,
  alternatives: readonly UnionAlternative[],
): { ok: true; index: number } | { ok: false; problems: string[] } {
  if (body === undefined) return { ok: false, problems: ["body must be defined"] };
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, problems: [`body ${typeError("object", body)}`] };
  const record = body as Record<string, unknown>;
  const perAlternative = alternatives.map((alternative) => problemsOf(record, alternative));
  const index = perAlternative.findIndex((p) => p.length === 0);
  if (index >= 0) return { ok: true, index };
  const lines = ["body is not matched by any of the provided schemas:"];
  perAlternative.forEach((problems, i) => {
    lines.push(`    Schema ${i}:`);
    for (const p of problems) lines.push(`      ${p.replace(/\n/g, "\n      ")}`);
  });
  return { ok: false, problems: [lines.join("\n")] };
}
