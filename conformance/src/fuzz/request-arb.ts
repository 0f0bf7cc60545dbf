import fc from "fast-check";
import { fillPathParams, pathParamNames, type Operation } from "@authsim/sdk/contract";
import type { Arsenal } from "./arsenal.ts";
import { headersArb, type HeaderPlan } from "./headers-arb.ts";
import {
  arr,
  asQueryValue,
  hostileJson,
  hostileLeaf,
  hostileString,
  isObject,
  metadataJson,
  obj,
  pollutionKeys,
  pollutionPayload,
  render,
  type Json,
} from "./json.ts";
import { arbitraryOf, jsonSchemaOf } from "./schema-arb.ts";
import { shapeOf, type Shape } from "./request-shape.ts";
import { ORIGIN } from "./world.ts";

/**
 * One generated request for an operation: path parameters, query, headers and body, each valid-ish (from the
 * contract's shape and the world's pools), near-valid (one thing wrong) or hostile.
 */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
  override: boolean;
  /** Which body recipe made it, for failure reports. */
  bodyKind: string;
}

const hostileSegments = [
  "",
  ".",
  "..",
  "%",
  "%zz",
  "%2F",
  "%00",
  "%ED%A0%80",
  "%C0%AF",
  "me",
  "null",
  "%E2%80%AE",
  "x".repeat(3_000),
];

/** Encodes a generated segment; one encodeURIComponent refuses (a lone surrogate) goes as invalid UTF-8 instead. */
function segment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

function paramArb(name: string, arsenal: Arsenal, clean: boolean): fc.Arbitrary<string> {
  const known = arsenal.pools.byName(name);
  const valid = known.length > 0 ? fc.constantFrom(...known) : fc.uuid({ version: 4 });
  if (clean) return valid.map(segment);
  return fc.oneof(
    { weight: 8, arbitrary: valid.map(segment) },
    { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom(...hostileSegments) },
    { weight: 1, arbitrary: hostileString.map(segment) },
  );
}

function pathArb(operation: Operation, arsenal: Arsenal, clean: boolean): fc.Arbitrary<string> {
  const names = pathParamNames(operation.path);
  if (names.length === 0) return fc.constant(operation.path === "/" ? "" : operation.path);
  return fc
    .tuple(...names.map((n) => paramArb(n, arsenal, clean)))
    .map((values) => fillPathParams(operation.path, (_name, i) => values[i] ?? ""));
}

function queryArb(shapeOfOp: Shape, arsenal: Arsenal, clean: boolean): fc.Arbitrary<[string, string][]> {
  const shape = shapeOfOp.query;
  const valid: fc.Arbitrary<[string, string][]> = shape
    ? arbitraryOf(jsonSchemaOf(shape), arsenal.pools).map((v) =>
        isObject(v) ? v.entries.map(([k, x]) => [k, asQueryValue(x)] as [string, string]) : [],
      )
    : fc.constant([]);
  if (clean) return valid;
  const extra = fc.tuple(
    fc.constantFrom("extra", ...pollutionKeys, "user_id", "limit", "__proto__[polluted]"),
    hostileLeaf.map(asQueryValue),
  );
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 1, arbitrary: fc.tuple(valid, extra).map(([v, e]) => [...v, e]) },
    // Every valid value replaced by a hostile one, keys kept.
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, hostileLeaf.map(asQueryValue))
        .map(([v, h]) => v.map(([k]) => [k, h] as [string, string])),
    },
    // Duplicated keys: which one wins must not matter to safety.
    { weight: 1, arbitrary: valid.map((v) => [...v, ...v.map(([k]) => [k, "duplicate"] as [string, string])]) },
  );
}

/** Keys that any endpoint of the contract might take, for bodies whose schema names no fields. */
const vocabulary = [
  "email",
  "password",
  "user_id",
  "team_id",
  "display_name",
  "callback_url",
  "code",
  "description",
  "id",
  "type",
  "value",
  "enabled",
  "client_metadata",
];

function validBody(shape: Shape, arsenal: Arsenal): fc.Arbitrary<Json> {
  if (shape.body && shape.clientBody) {
    return fc.oneof(
      { weight: 2, arbitrary: arbitraryOf(jsonSchemaOf(shape.clientBody), arsenal.pools) },
      { weight: 1, arbitrary: arbitraryOf(jsonSchemaOf(shape.body), arsenal.pools) },
    );
  }
  if (shape.body) return arbitraryOf(jsonSchemaOf(shape.body), arsenal.pools);
  return fc
    .uniqueArray(fc.constantFrom(...vocabulary), { maxLength: 4 })
    .chain((keys) =>
      fc.tuple(
        ...keys.map((k) =>
          fc
            .oneof(fc.constantFrom(...(arsenal.pools.byName(k).length ? arsenal.pools.byName(k) : ["x"])), metadataJson)
            .map((v) => [k, v] as const),
        ),
      ),
    )
    .map(obj);
}

/** One thing wrong with a valid-ish body: a key dropped or added, a value of the wrong type, a pollution payload. */
function nearValid(body: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  const mutation = fc.constantFrom("drop", "add", "retype", "pollute", "duplicate", "wrap");
  return fc
    .tuple(body, fc.nat(), mutation, hostileJson, pollutionPayload)
    .map(([value, n, how, hostile, pollution]) => {
      if (!isObject(value)) return how === "wrap" ? arr([value]) : hostile;
      const entries = [...value.entries];
      const i = entries.length ? n % entries.length : 0;
      const target = entries[i];
      if (how === "drop" && target) entries.splice(i, 1);
      else if (how === "retype" && target) entries[i] = [target[0], hostile];
      else if (how === "duplicate" && target) entries.push([target[0], hostile]);
      else if (how === "pollute" && isObject(pollution)) entries.push(...pollution.entries);
      else if (how === "wrap") return arr([value]);
      else entries.push([`unexpected_${n % 5}`, hostile]);
      return obj(entries);
    });
}

interface BodyPlan {
  body?: string;
  contentType?: string;
  kind: string;
}

function bodyArb(operation: Operation, shape: Shape, arsenal: Arsenal, clean: boolean): fc.Arbitrary<BodyPlan> {
  if (operation.method === "GET") return fc.constant({ kind: "none" });
  const form = shape.form === true;
  const valid = validBody(shape, arsenal);
  const encode = (value: Json): BodyPlan =>
    form && isObject(value)
      ? {
          body: new URLSearchParams(value.entries.map(([k, v]) => [k, asQueryValue(v)])).toString(),
          contentType: "application/x-www-form-urlencoded",
          kind: "valid-ish form",
        }
      : { body: render(value), contentType: "application/json", kind: "valid-ish" };
  const contentTypes = [
    "text/plain",
    "application/octet-stream",
    "application/x-www-form-urlencoded",
    "text/csv",
    "multipart/form-data; boundary=x",
    "application/json; charset=utf-16",
    "APPLICATION/JSON",
    "application/xml",
    "",
  ];
  // Faults of the body itself, whatever the operation takes.
  const malformed = [
    {
      weight: 2,
      arbitrary: hostileJson.map((v): BodyPlan => ({
        body: render(v),
        contentType: "application/json",
        kind: "hostile json",
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.nat()).map(([v, n]) => {
        const text = render(v);
        return {
          body: text.slice(0, text.length > 1 ? n % (text.length - 1) : 0) || "{",
          contentType: "application/json",
          kind: "truncated json",
        };
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...contentTypes))
        .map(([v, type]) => ({ body: render(v), contentType: type, kind: `content-type ${type || "(empty)"}` })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("", "null", "[]", '"text"', "{}", '{"a":1}garbage', "\u0000")
        .map((body): BodyPlan => ({ body, contentType: "application/json", kind: "odd json" })),
    },
  ];
  if (shape.noBody) {
    // The SDKs send nothing, or `{}` on some DELETEs (the contract's noBody): both are valid here.
    const empty = fc.constantFrom<BodyPlan>(
      { kind: "none" },
      { body: "{}", contentType: "application/json", kind: "valid-ish" },
    );
    if (clean) return empty;
    return fc.oneof(
      { weight: 6, arbitrary: empty },
      { weight: 3, arbitrary: valid.map((v) => ({ ...encode(v), kind: "unexpected body" })) },
      ...malformed,
    );
  }
  if (clean) return valid.map(encode);
  return fc.oneof(
    { weight: 8, arbitrary: valid.map(encode) },
    { weight: 3, arbitrary: nearValid(valid).map((v) => ({ ...encode(v), kind: "near-valid" })) },
    ...malformed,
    { weight: 1, arbitrary: fc.constant<BodyPlan>({ kind: "none" }) },
  );
}

/**
 * Half the requests are clean (credentials, path, query and body all valid-ish, so the handler runs and meets the
 * hostile values a schema lets through, such as metadata); the other half mix in faults of every part.
 */
export function requestArb(operation: Operation, arsenal: Arsenal): fc.Arbitrary<FuzzRequest> {
  const shape = shapeOf(operation);
  const build = (clean: boolean) =>
    fc
      .record({
        path: pathArb(operation, arsenal, clean),
        query: queryArb(shape, arsenal, clean),
        headers: headersArb(operation, arsenal, clean),
        body: bodyArb(operation, shape, arsenal, clean),
      })
      .map(({ path, query, headers, body }) => toRequest(operation.method, path, query, headers, body));
  return fc.oneof(build(true), build(false));
}

function toRequest(
  method: string,
  path: string,
  query: [string, string][],
  plan: HeaderPlan,
  body: BodyPlan,
): FuzzRequest {
  const search = query.length > 0 ? `?${new URLSearchParams(query).toString()}` : "";
  const headers = [...plan.headers];
  if (body.contentType !== undefined && body.body !== undefined) headers.push(["content-type", body.contentType]);
  return {
    method,
    url: `${ORIGIN}/api/v1${path}${search}`,
    headers,
    ...(body.body !== undefined ? { body: body.body } : {}),
    override: plan.override,
    bodyKind: body.kind,
  };
}
