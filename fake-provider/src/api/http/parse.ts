import type { z } from "zod";
import { knownError } from "../../domain/errors/known-error.ts";
import { schemaError } from "../../domain/errors/schema-error.ts";
import { refusal } from "../../domain/errors/refusals.ts";
import { yupWording } from "./schema-wording.ts";

// Routes word their own shape problems the same way.
export { schemaError };

/** A header the real service's request schema requires (a cron secret, a queue's signature): SCHEMA_ERROR without it. */
export function requiredHeader(request: Request, name: string): string {
  const value = request.headers.get(name);
  if (value === null)
    throw schemaError({ method: request.method, pathname: new URL(request.url).pathname }, [
      `headers.${name} must be defined`,
    ]);
  return value;
}

/**
 * Request parsing shared by every route: JSON bodies, form bodies (token endpoint) and schema validation. Failures are
 * the catalogue's BODY_PARSING_ERROR and SCHEMA_ERROR with a readable message (protocol.md §1).
 */
/** The text each request's body was read from (readBody), for the few operations that check its exact bytes. */
const rawBodies = new WeakMap<Request, string>();
export const rawBodyOf = (request: Request): string | undefined => rawBodies.get(request);

/**
 * The string fields of a form or JSON body, as OAuth endpoints read a request (RFC 6749 sends forms; some clients send
 * JSON): other values and an unparsable JSON text give no fields.
 */
export function stringFields(contentType: string, text: string): Record<string, string> {
  if (!contentType.includes("application/json")) return Object.fromEntries(new URLSearchParams(text));
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return {};
  }
}

export async function readBody(request: Request): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const bytes = await boundedBytes(request);
  if (type === "application/octet-stream") {
    if (isGzip(bytes)) return gzippedJson(bytes);
    const text = utf8.decode(bytes);
    rawBodies.set(request, text);
    return text.length === 0 ? undefined : text;
  }
  const raw = utf8.decode(bytes);
  rawBodies.set(request, raw);
  if (raw.length === 0) return undefined;
  if (type === "application/json" || type === "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw) as unknown;
    } catch {
      throw knownError("BODY_PARSING_ERROR", undefined, { message: "Invalid JSON in request body" });
    }
    // JSON.parse accepts any depth, but JSON.stringify and structuredClone overflow the stack a few thousand levels
    // down: such a body stored as metadata would turn every later answer about it (and every snapshot) into a 500.
    if (nestingDepth(parsed) > MAX_JSON_DEPTH) {
      throw knownError("BODY_PARSING_ERROR", undefined, {
        message: `Invalid JSON in request body: nested deeper than ${MAX_JSON_DEPTH} levels`,
      });
    }
    return parsed;
  }
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(raw));
  if (type === "text/plain") return raw;
  throw knownError("BODY_PARSING_ERROR", undefined, { message: `Unknown content type in request body: ${type}` });
}

/**
 * The largest body the API reads: 8 MiB, the most a gzipped body may inflate to as well. The real service states no
 * limit of its own (its route handlers read whatever comes; only the session-replay batch refuses more than 1,000,000
 * bytes, after reading), but the emulator runs on a laptop where any web page may send it a body: a 100 MB one was
 * buffered and parsed whole before its 400, and the process kept the memory (issue 31). Far above any real request
 * (an SDK's analytics or replay batch, a config override, an email template), docs/emulator.md.
 */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** The plain-text 413 for a larger body (the refusal catalogue's requestBodyTooLarge). */
export const bodyTooLargeText = (limit: number) => refusal("requestBodyTooLarge", limit).message;
const bodyTooLarge = () => refusal("requestBodyTooLarge", MAX_BODY_BYTES);

/** A stream passed the bytes it may hold (readAtMost). */
class BodyTooLargeError extends Error {}

/** UTF-8 as the Fetch standard's text() decodes: a BOM dropped, malformed bytes replaced. */
const utf8 = new TextDecoder();
/** UTF-8 as a Request encodes a string body (lone surrogates replaced). */
const utf8Encoder = new TextEncoder();

/**
 * The text a request's body was made from, when its maker says so (`provider.fetch` given a string): the body is read
 * from it, as the same bytes the request's stream holds, instead of through the stream, whose reader cost in process
 * about as much as the rest of a body's parsing (issue 30). The stream itself is left as it was.
 */
const textBodies = new WeakMap<Request, string>();
export function noteTextBody(request: Request, text: string): void {
  textBodies.set(request, text);
}

/**
 * The body's bytes, refused with 413 past MAX_BODY_BYTES before anything is parsed: at once when its Content-Length says
 * so, else while it is read (the stream is cancelled at the first chunk past the limit, so no more than the limit is
 * ever held). A declared length within the limit is read in one piece: the HTTP server that framed the body stops at
 * that length, and a host's own fast body methods (the dev server's preloaded bodies) serve it.
 */
async function boundedBytes(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("content-length");
  const declaredLength = declared !== null && /^\d+$/.test(declared.trim()) ? Number(declared) : null;
  if (declaredLength !== null && declaredLength > MAX_BODY_BYTES) throw bodyTooLarge();
  const text = request.bodyUsed ? undefined : textBodies.get(request);
  if (text !== undefined) {
    const bytes = utf8Encoder.encode(text);
    if (declaredLength === null && bytes.byteLength > MAX_BODY_BYTES) throw bodyTooLarge();
    return bytes;
  }
  if (declaredLength !== null) return new Uint8Array(await request.arrayBuffer());
  if (request.body === null) return new Uint8Array(0);
  try {
    return await readAtMost(request.body, MAX_BODY_BYTES);
  } catch (error) {
    throw error instanceof BodyTooLargeError ? bodyTooLarge() : error;
  }
}

/** A stream's bytes, joined; BodyTooLargeError (the stream cancelled) once they pass `limit`. */
async function readAtMost(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  return joinChunks(chunks, total);
}

function joinChunks(chunks: readonly Uint8Array[], total: number): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined;
}

const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
/** The most a gzipped body may inflate to: far above an SDK batch (500 events), far below what hurts the emulator. */
export const MAX_INFLATED_BYTES = 8 * 1024 * 1024;

/**
 * The published SDK gzips its analytics event batches and sends them as application/octet-stream; the service reads
 * them as the JSON they hold. Inflated with the web's DecompressionStream, stopping at MAX_INFLATED_BYTES (a small
 * body can claim gigabytes); anything that is not gzipped JSON is BODY_PARSING_ERROR.
 */
async function gzippedJson(bytes: Uint8Array<ArrayBuffer>): Promise<unknown> {
  const refuse = (why: string) =>
    knownError("BODY_PARSING_ERROR", undefined, { message: `Invalid gzipped JSON in request body: ${why}` });
  let joined: Uint8Array;
  try {
    joined = await readAtMost(
      new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")),
      MAX_INFLATED_BYTES,
    );
  } catch (error) {
    throw refuse(
      error instanceof BodyTooLargeError ? `it inflates to more than ${MAX_INFLATED_BYTES} bytes` : "not valid gzip",
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(joined)) as unknown;
  } catch {
    throw refuse("not JSON");
  }
  if (nestingDepth(parsed) > MAX_JSON_DEPTH) throw refuse(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  return parsed;
}

/** Far beyond any real metadata, far below where the engine's recursive serialisers run out of stack. */
export const MAX_JSON_DEPTH = 512;

/** The nesting depth of a parsed JSON value, measured without recursion (the value may be arbitrarily deep). */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export interface SchemaLocation {
  method: string;
  /** The public pathname, e.g. /api/v1/users. */
  pathname: string;
  part: "body" | "query" | "params" | "headers";
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** Checks `value` against `schema`, describing each problem as the wire's SCHEMA_ERROR message lines do. */
export function check<S extends z.ZodType>(
  schema: S,
  value: unknown,
  part: SchemaLocation["part"],
): Checked<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const problems = result.error.issues.map((issue) => {
    // Array positions as the real service prints them: body.events[0].event_type.
    const path = issue.path.length
      ? `${part}.${issue.path.map(String).join(".")}`.replace(/\.(\d+)(?=\.|$)/g, "[$1]")
      : part;
    // Named by the object that has them: "body.config.email_config contains unknown properties: client_id".
    if (issue.code === "unrecognized_keys") return `${path} contains unknown properties: ${issue.keys.join(", ")}`;
    // The real service's own wording for a value its custom test refuses (contract: YUP_INVALID), without a colon.
    if (issue.message === "is invalid") return `${path} is invalid`;
    // A custom test whose message the real service gives as it is, with no path (contract: `params: { bare: true }`).
    if (issue.code === "custom" && (issue.params as { bare?: unknown } | undefined)?.bare === true)
      return issue.message;
    // And for a required field that is absent.
    if (issue.code === "invalid_type" && valueAt(value, issue.path) === undefined) return `${path} must be defined`;
    // The rest as the real service's validation words them (api/http/schema-wording.ts), else zod's own message.
    const worded = issue.path.length ? yupWording(issue, path, valueAt(value, issue.path)) : null;
    return worded ?? `${path}: ${issue.message}`;
  });
  // Two checks of one field can word the same problem (a URL that is neither a URL nor an image): once, as upstream.
  return { ok: false, problems: [...new Set(problems)] };
}

/** The value at `path` inside `value` (undefined when any step is missing). */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Validates `value` against `schema` or throws SCHEMA_ERROR naming every problem. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, where: SchemaLocation): z.output<S> {
  const checked = check(schema, value, where.part);
  if (checked.ok) return checked.value;
  throw schemaError(where, checked.problems);
}
