import fc from "fast-check";
import { z } from "zod";
import { arr, fromPlain, metadataJson, obj, type Json } from "./json.ts";

/**
 * Valid-ish values from a contract schema: the zod schema goes through z.toJSONSchema and each JSON-schema node
 * becomes an arbitrary. Refinements are lost on the way (that is the "-ish"); values named after things the world
 * has (ids, emails, passwords, codes, URLs) are drawn from the world's pools so requests get past lookups.
 */
export interface Pools {
  /** Candidate values by field name (e.g. "user_id" → ids of users, "me"). */
  byName(name: string): readonly string[];
  uuids: readonly string[];
  emails: readonly string[];
  urls: readonly string[];
}

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => v !== null && typeof v === "object" && !Array.isArray(v);

export function jsonSchemaOf(schema: z.ZodType): Node {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Node;
}

const UUID_PATTERN = "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$";

function pick(pool: readonly string[], fallback: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return pool.length > 0
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: fallback })
    : fallback;
}

function stringArb(node: Node, name: string, pools: Pools): fc.Arbitrary<string> {
  const named = pools.byName(name);
  const pattern = typeof node.pattern === "string" ? node.pattern : null;
  let base: fc.Arbitrary<string>;
  if (pattern === UUID_PATTERN) base = pick(pools.uuids, fc.uuid({ version: 4 }));
  else if (node.format === "email") base = pick(pools.emails, fc.emailAddress());
  else if (node.format === "uri") base = pick(pools.urls, fc.webUrl());
  else if (pattern !== null) base = safeMatching(pattern);
  else {
    const minLength = typeof node.minLength === "number" ? node.minLength : 0;
    const maxLength = Math.min(typeof node.maxLength === "number" ? node.maxLength : 40, 300);
    base = fc.string({ minLength, maxLength: Math.max(minLength, maxLength), unit: "grapheme-ascii" });
  }
  return named.length > 0
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...named) }, { weight: 1, arbitrary: base })
    : base;
}

function safeMatching(pattern: string): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch {
    return fc.string({ maxLength: 20 });
  }
}

function numberArb(node: Node): fc.Arbitrary<number> {
  const min =
    typeof node.minimum === "number"
      ? node.minimum
      : typeof node.exclusiveMinimum === "number"
        ? node.exclusiveMinimum + 1
        : -1_000_000;
  const max =
    typeof node.maximum === "number"
      ? node.maximum
      : typeof node.exclusiveMaximum === "number"
        ? node.exclusiveMaximum - 1
        : 1_000_000;
  if (node.type === "integer") {
    // Mostly small, sometimes the bounds themselves (expiry stamps past the Date range live there).
    return fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: Math.max(min, -1000), max: Math.min(max, 100_000) }) },
      { weight: 1, arbitrary: fc.constantFrom(min, max) },
    );
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** An arbitrary for one JSON-schema node. `name` is the property it sits under (for the pools). */
export function arbitraryOf(node: unknown, pools: Pools, name = ""): fc.Arbitrary<Json> {
  if (node === true || !isNode(node) || Object.keys(node).length === 0) return metadataJson;
  if ("const" in node) return fc.constant(fromPlain(node.const));
  if (Array.isArray(node.enum)) return fc.constantFrom(...node.enum.map(fromPlain));
  const alternatives = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((a) => arbitraryOf(a, pools, name)));
  if (Array.isArray(node.type))
    return fc.oneof(...node.type.map((t: unknown) => arbitraryOf({ ...node, type: t }, pools, name)));
  switch (node.type) {
    case "string":
      return stringArb(node, name, pools);
    case "integer":
    case "number":
      return numberArb(node);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      if (Array.isArray(node.prefixItems))
        return fc.tuple(...node.prefixItems.map((i) => arbitraryOf(i, pools, name))).map(arr);
      return fc.array(arbitraryOf(node.items, pools, name), { maxLength: 3 }).map(arr);
    case "object":
      return objectArb(node, pools);
    default:
      return metadataJson;
  }
}

function objectArb(node: Node, pools: Pools): fc.Arbitrary<Json> {
  const properties = isNode(node.properties) ? node.properties : {};
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const fields = Object.entries(properties).map(([key, child]) => {
    const value = arbitraryOf(child, pools, key).map((v) => [key, v] as const);
    // Optional fields are present about half of the time.
    return required.has(key)
      ? value.map((e) => [e])
      : fc.option(value, { nil: undefined, freq: 2 }).map((e) => (e ? [e] : []));
  });
  // Records: keys follow propertyNames (catalogue ids, say) when the schema gives a pattern.
  const keyPattern =
    isNode(node.propertyNames) && typeof node.propertyNames.pattern === "string" ? node.propertyNames.pattern : null;
  const key = keyPattern ? safeMatching(keyPattern) : fc.string({ minLength: 1, maxLength: 8 });
  const extra = isNode(node.additionalProperties)
    ? fc.array(fc.tuple(key, arbitraryOf(node.additionalProperties, pools)), { maxLength: 2 })
    : fc.constant([] as [string, Json][]);
  return fc.tuple(fc.tuple(...fields), extra).map(([parts, more]) => obj([...parts.flat(), ...more]));
}
