import { SCHEMA_REF, type JsonSchema } from "./schemas.ts";

/**
 * JSON Schema as readable HTML for the reference page: objects as field lists (name, type, required, constraints),
 * `$ref`s as links to the schema's own section, unions as "one of". Everything is escaped: schemas carry patterns
 * and descriptions, and the page must show them, not run them.
 */
export const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export const schemaAnchor = (name: string) => `schema-${name}`;

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function refLink(ref: string): string {
  const name = ref.startsWith(SCHEMA_REF) ? ref.slice(SCHEMA_REF.length) : ref;
  return `<a class="ref" href="#${escapeHtml(schemaAnchor(name))}">${escapeHtml(name)}</a>`;
}

const literal = (value: unknown) => `<code>${escapeHtml(JSON.stringify(value))}</code>`;

/** Constraints worth a reader's eye, in one short line. */
function constraints(schema: JsonSchema): string {
  const parts: string[] = [];
  const add = (label: string, key: string) =>
    schema[key] !== undefined && parts.push(`${label} ${escapeHtml(String(schema[key]))}`);
  add("format", "format");
  add("min length", "minLength");
  add("max length", "maxLength");
  add("≥", "minimum");
  add(">", "exclusiveMinimum");
  add("≤", "maximum");
  add("<", "exclusiveMaximum");
  add("min items", "minItems");
  add("max items", "maxItems");
  if (typeof schema.pattern === "string") parts.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
  if (schema.default !== undefined) parts.push(`default ${literal(schema.default)}`);
  return parts.length ? ` <span class="constraints">(${parts.join(", ")})</span>` : "";
}

function typeName(schema: JsonSchema): string {
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => escapeHtml(String(t))).join(" | ");
  return typeof type === "string" ? escapeHtml(type) : "any";
}

/** A one-line description of simple schemas; null when the schema needs a block (objects, unions). */
function inline(schema: JsonSchema): string | null {
  if (typeof schema.$ref === "string") return refLink(schema.$ref);
  if (schema.const !== undefined) return literal(schema.const);
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(literal).join(", ")}`;
  if (schema.type === "array" && isSchema(schema.items)) {
    const item = inline(schema.items);
    return item === null ? null : `array of ${item}${constraints(schema)}`;
  }
  if (schema.anyOf || schema.oneOf || schema.properties) return null;
  if (schema.type === "object") return `object${schema.additionalProperties === false ? " (no fields)" : ""}`;
  return `${typeName(schema)}${constraints(schema)}`;
}

function describe(schema: JsonSchema): string {
  return typeof schema.description === "string"
    ? `<div class="description">${escapeHtml(schema.description)}</div>`
    : "";
}

/** The schema as HTML: inline when simple, else a block (nested up to `depth` levels, then "…"). */
export function schemaHtml(schema: unknown, depth = 6): string {
  if (!isSchema(schema)) return "any";
  const line = inline(schema);
  if (line !== null) return `${line}${describe(schema)}`;
  if (depth === 0) return "…";
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (alternatives) {
    return `${describe(schema)}one of:<ol class="alternatives">${alternatives.map((a) => `<li>${schemaHtml(a, depth - 1)}</li>`).join("")}</ol>`;
  }
  if (schema.type === "array") return `array of ${schemaHtml(schema.items, depth - 1)}`;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const rows = Object.entries(properties).map(
    ([name, inner]) =>
      `<li><code class="field">${escapeHtml(name)}</code>${required.has(name) ? ' <span class="required">required</span>' : ""}: ${schemaHtml(inner, depth - 1)}</li>`,
  );
  const closed = schema.additionalProperties === false ? ' <span class="constraints">(no other fields)</span>' : "";
  return `${describe(schema)}object${closed}<ul class="fields">${rows.join("")}</ul>`;
}
