import { z } from "zod";
import * as contract from "@authsim/sdk/contract";

/**
 * Zod schemas → OpenAPI 3.1 component schemas (JSON Schema 2020-12), with z.toJSONSchema over registries. Every schema
 * the contract exports is a named component, so `serverUser` inside a list is a `$ref`, not a copy. Requests are
 * described as input (defaults optional, unknown keys not shown as refused) and responses as output (what the
 * provider sends), so a schema both sides reach can come out twice: the response-side copy is then `<name>Output`.
 */
export type JsonSchema = { [key: string]: unknown };

export const SCHEMA_REF = "#/components/schemas/";

/** Every schema the contract exports, by its export name; read through the whole contract once, on first use. */
let contractNamesOnce: ReadonlyMap<z.ZodType, string> | undefined;
function contractNames(): ReadonlyMap<z.ZodType, string> {
  if (!contractNamesOnce) {
    const names = new Map<z.ZodType, string>();
    for (const [name, value] of Object.entries(contract))
      if (value instanceof z.ZodType && !names.has(value)) names.set(value, name);
    contractNamesOnce = names;
  }
  return contractNamesOnce;
}

/** The schemas one side (requests or responses) refers to, each named by its contract export or a given fallback. */
export class SchemaSide {
  private readonly names = new Map<z.ZodType, string>();
  private readonly taken = new Set<string>(contractNames().values());
  /** Contract names given to a schema derived from the export (e.g. its body without the "or nothing" part). */
  private readonly aliased = new Set<string>();
  readonly roots = new Set<string>();

  constructor(readonly io: "input" | "output") {}

  /**
   * A `$ref` to the schema (for a document root: an operation's body or response), named by its contract export, else
   * by the export it was derived from (`origin`), else `fallback`.
   */
  ref(schema: z.ZodType, fallback: string, origin?: z.ZodType): JsonSchema {
    const inherited =
      origin && !contractNames().has(schema) && !this.names.has(schema) ? contractNames().get(origin) : undefined;
    if (inherited && !this.aliased.has(inherited)) {
      this.aliased.add(inherited);
      this.names.set(schema, inherited);
    }
    const name = this.nameOf(schema, fallback);
    this.roots.add(name);
    return { $ref: SCHEMA_REF + name };
  }

  private nameOf(schema: z.ZodType, fallback: string): string {
    const known = contractNames().get(schema) ?? this.names.get(schema);
    if (known) return known;
    let name = fallback;
    for (let n = 2; this.taken.has(name); n++) name = `${fallback}${n}`;
    this.taken.add(name);
    this.names.set(schema, name);
    return name;
  }

  /** Every registered schema's JSON Schema by name (contract exports included, reachable or not). */
  generate(): Map<string, JsonSchema> {
    const registry = z.registry<{ id: string }>();
    for (const [schema, id] of contractNames()) if (!this.aliased.has(id)) registry.add(schema, { id });
    for (const [schema, id] of this.names) registry.add(schema, { id });
    const { schemas } = z.toJSONSchema(registry, {
      target: "draft-2020-12",
      io: this.io,
      unrepresentable: "any",
      uri: (id) => SCHEMA_REF + id,
    });
    return new Map(Object.entries(schemas).map(([id, json]) => [id, strip(json as JsonSchema)]));
  }
}

/** Drops what only a standalone JSON Schema document carries. */
function strip(json: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = json;
  return rest;
}

/** The names a schema refers to with `$ref`, however deep. */
export function refsIn(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string" && inner.startsWith(SCHEMA_REF))
        into.add(inner.slice(SCHEMA_REF.length));
      else refsIn(inner, into);
    }
  }
  return into;
}

function reachable(roots: Iterable<string>, schemas: Map<string, JsonSchema>): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...refsIn(schemas.get(name)));
  }
  return seen;
}

function renameRefs<T>(value: T, renamed: ReadonlySet<string>): T {
  return JSON.parse(JSON.stringify(value), (key, inner: unknown) =>
    key === "$ref" && typeof inner === "string" && renamed.has(inner.slice(SCHEMA_REF.length))
      ? `${inner}Output`
      : inner,
  ) as T;
}

export interface Components {
  schemas: Record<string, JsonSchema>;
  /** Rewrites a response-side fragment's refs to the names the components ended up with. */
  outputRefs<T>(value: T): T;
}

/** The components both sides reach, only those, with response-side copies renamed where the two sides differ. */
export function combine(requests: SchemaSide, responses: SchemaSide): Components {
  const input = requests.generate();
  const output = responses.generate();
  const inReach = reachable(requests.roots, input);
  const outReach = reachable(responses.roots, output);
  const shared = [...inReach].filter((name) => outReach.has(name));
  // A shared schema is split when the two descriptions differ, or when it refers to one that is split.
  const split = new Set(shared.filter((name) => JSON.stringify(input.get(name)) !== JSON.stringify(output.get(name))));
  for (let grew = true; grew;) {
    grew = false;
    for (const name of shared) {
      if (!split.has(name) && [...refsIn(output.get(name))].some((ref) => split.has(ref))) {
        split.add(name);
        grew = true;
      }
    }
  }
  const schemas: Record<string, JsonSchema> = {};
  for (const name of [...inReach].sort()) schemas[name] = input.get(name)!;
  for (const name of [...outReach].sort())
    schemas[split.has(name) ? `${name}Output` : name] = renameRefs(output.get(name)!, split);
  return {
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    outputRefs: (value) => renameRefs(value, split),
  };
}
