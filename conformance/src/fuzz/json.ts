import fc from "fast-check";

/**
 * JSON as a tree that is rendered to text by hand, so a body can carry what `JSON.stringify` of a JS object cannot:
 * `__proto__` as an ordinary key (an object literal would set the prototype instead), duplicate keys, numbers that
 * parse to Infinity (`1e309`) and nesting deeper than `JSON.stringify` survives.
 */
export type Json = null | boolean | number | string | JsonArray | JsonObject | JsonRaw;
export interface JsonArray {
  readonly items: readonly Json[];
}
export interface JsonObject {
  readonly entries: readonly (readonly [string, Json])[];
}
/** Text inserted verbatim (a number literal JSON.stringify would not write, or a pre-rendered deep value). */
export interface JsonRaw {
  readonly raw: string;
}

export const obj = (entries: readonly (readonly [string, Json])[]): JsonObject => ({ entries });
export const arr = (items: readonly Json[]): JsonArray => ({ items });
export const raw = (text: string): JsonRaw => ({ raw: text });

export function isObject(value: Json): value is JsonObject {
  return value !== null && typeof value === "object" && "entries" in value;
}

export function render(value: Json): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if ("raw" in value) return value.raw;
  if ("items" in value) return `[${value.items.map(render).join(",")}]`;
  return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${render(v)}`).join(",")}}`;
}

/** A query-string value for a leaf (objects and arrays become their JSON text). */
export function asQueryValue(value: Json): string {
  if (typeof value === "string") return value;
  return render(value);
}

/** Keys that pollute prototypes when code merges untrusted objects naively. */
export const pollutionKeys = ["__proto__", "constructor", "prototype"] as const;
/** What a successful pollution would leave on Object.prototype. */
export const POLLUTION_MARKER = "polluted";

/** Nested `[[[…]]]` or `{"a":{"a":…}}` of the given depth: JSON.parse accepts it, JSON.stringify and structuredClone overflow. */
export function deep(depth: number, kind: "array" | "object"): JsonRaw {
  return kind === "array"
    ? raw("[".repeat(depth) + "]".repeat(depth))
    : raw('{"a":'.repeat(depth) + "null" + "}".repeat(depth));
}

const hostileStrings: readonly string[] = [
  "",
  " ",
  "\u0000",
  "\ud800",
  "\udfff",
  "a\ud83dz",
  "\u202e\u0635\u0648\u0631\u0629 evil",
  "\u200f\u05e9\u05dc\u05d5\u05dd",
  "\ufeff",
  "Ω≈ç√∫˜µ≤≥÷",
  "👩‍👩‍👧‍👦",
  "NaN",
  "Infinity",
  "-0",
  "1e308",
  "null",
  "undefined",
  "true",
  "[object Object]",
  "00000000-0000-0000-0000-000000000000",
  "8d5f3c1a-7b2e-4e9d-a6c4-2f1b0e9d7c3",
  "8D5F3C1A-7B2E-4E9D-A6C4-2F1B0E9D7C35",
  "{{7*7}}",
  // JSON text for fields that carry JSON in a string (a config override): dotted paths through a prototype.
  '{"__proto__.polluted":true}',
  '{"constructor.prototype.polluted":1}',
  '{"a":{"__proto__":{"polluted":1}}}',
  "${process.exit(1)}",
  "<script>alert(1)</script>",
  "'; DROP TABLE users; --",
  "../../../../etc/passwd",
  "%00%2e%2e%2f",
  "me",
  "internal",
  "__proto__",
  "constructor",
  "$update_team",
  "javascript:alert(1)",
  "http://evil.example.com/callback",
];

/** Strings that break naive code: control and bidi characters, lone surrogates, lookalike ids, injection text. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...hostileStrings) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  // Huge values: past every documented limit (254 for emails, 1024 for descriptions, 70 for passwords).
  { weight: 1, arbitrary: fc.constantFrom(300, 5_000, 200_000).map((n) => "x".repeat(n)) },
);

const hostileNumber: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    0,
    -1,
    1e308,
    -1e308,
    8.64e15 + 1,
    0.5,
    -0.0001,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
  ),
  fc.constantFrom(raw("1e309"), raw("-1e309"), raw("1E400"), raw("-0"), raw("1.0e-400"), raw("9007199254740993")),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** A leaf of any JSON type, biased to edge cases. */
export const hostileLeaf: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false) },
);

const anyKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...pollutionKeys) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "a",
      "email",
      "password",
      "user_id",
      "team_id",
      "id",
      "type",
      "code",
      "",
      "0",
      "__defineGetter__",
      "toString",
      "hasOwnProperty",
    ),
  },
  { weight: 1, arbitrary: hostileString },
);

/** `{"__proto__": {"polluted": "yes"}}` and its cousins. */
export const pollutionPayload: fc.Arbitrary<Json> = fc
  .tuple(fc.constantFrom(...pollutionKeys), fc.constantFrom<Json>("yes", true, 1))
  .map(([key, value]) =>
    key === "constructor"
      ? obj([[key, obj([["prototype", obj([[POLLUTION_MARKER, value]])]])]])
      : obj([[key, obj([[POLLUTION_MARKER, value]])]]),
  );

/** Arbitrary hostile JSON values: small trees of edge-case leaves, pollution keys and occasional deep nesting. */
export const hostileJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json; array: Json; object: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 5, arbitrary: hostileLeaf },
    { weight: 1, arbitrary: tie("array") },
    { weight: 2, arbitrary: tie("object") },
    { weight: 1, arbitrary: pollutionPayload },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 2_000, max: 12_000 }), fc.constantFrom("array" as const, "object" as const))
        .map(([d, k]) => deep(d, k)),
    },
  ),
  array: fc.array(tie("value"), { maxLength: 4 }).map(arr),
  object: fc.array(fc.tuple(anyKey, tie("value")), { maxLength: 4 }).map(obj),
})).value;

/** Metadata-like values (anything JSON): mostly ordinary, sometimes hostile. */
export const metadataJson: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }).map(fromPlain) },
  { weight: 2, arbitrary: hostileJson },
  // Deep values on their own: nested where a schema takes "any JSON", they reach the store and the serialisers.
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 400, max: 8_000 }), fc.constantFrom("array" as const, "object" as const))
      .map(([d, k]) => deep(d, k)),
  },
);

/** Converts a plain JS value (from fc.jsonValue and similar) to the tree. */
export function fromPlain(value: unknown): Json {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return arr(value.map(fromPlain));
  if (typeof value === "object")
    return obj(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, fromPlain(v)] as const));
  return null;
}
