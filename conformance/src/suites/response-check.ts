import {
  accessTypes,
  headerNames,
  rebranded,
  schemaForCaller,
  type AccessType,
  type Operation,
} from "@authsim/sdk/contract";

/**
 * Holds one real answer of an operation to what the contract says it answers (its `responses`, sdk/src/contract/areas/<area>.ts). An
 * answer is checked when its status is one the operation lists; a known error is the catalogue's business, and a
 * 4xx/5xx the table does not list is a refusal it does not describe. A 2xx or 3xx it does not list is a problem.
 */
export interface AnswerSeen {
  status: number;
  headers: Headers;
  body: string;
  /** The access type the request claimed: a view chosen by who calls is checked against the caller's own. */
  accessType: string | null;
}

export type Verdict = { kind: "matches" } | { kind: "not-described" } | { kind: "problem"; problem: string };

export function checkAnswer(operation: Operation, answer: AnswerSeen): Verdict {
  if (answer.headers.has(headerNames.knownError) || answer.headers.has(rebranded(headerNames.knownError)))
    return { kind: "not-described" };
  const declared = operation.responses.find((r) => r.status === answer.status);
  if (!declared) {
    return answer.status < 400
      ? { kind: "problem", problem: `answered ${answer.status}, which the contract does not list` }
      : { kind: "not-described" };
  }
  const contentType = answer.headers.get("content-type") ?? "";
  if (declared.kind === "redirect")
    return answer.headers.has("location")
      ? { kind: "matches" }
      : { kind: "problem", problem: "a redirect without location" };
  // text/plain, or a small HTML page (the unsubscribe link answers one, as upstream).
  if (declared.kind === "text")
    return contentType.startsWith("text/plain") || contentType.startsWith("text/html")
      ? { kind: "matches" }
      : { kind: "problem", problem: `text answered as ${contentType}` };
  if (!contentType.startsWith("application/json"))
    return { kind: "problem", problem: `JSON answered as ${contentType}` };
  const body: unknown = JSON.parse(answer.body);
  const schema = schemaForCaller(declared, accessTypes.find((t): t is AccessType => t === answer.accessType) ?? null);
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    return { kind: "problem", problem: `${answer.status} body does not parse: ${parsed.error.message}` };
  // The schemas' objects strip unknown keys when parsing, but the OpenAPI document says they allow none: a key the
  // parse dropped is a field the contract does not describe.
  const dropped = droppedKeys(body, parsed.data, "$");
  return dropped.length === 0
    ? { kind: "matches" }
    : { kind: "problem", problem: `${answer.status} body has keys the schema does not list: ${dropped.join(", ")}` };
}

/** Paths of object keys present in what was sent and missing from what the schema made of it. */
function droppedKeys(sent: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed))
    return sent.flatMap((item, i) => droppedKeys(item, parsed[i], `${path}[${i}]`));
  if (!isRecord(sent) || !isRecord(parsed)) return [];
  return Object.entries(sent).flatMap(([key, value]) =>
    key in parsed ? droppedKeys(value, parsed[key], `${path}.${key}`) : [`${path}.${key}`],
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The access type a request claimed, under either header family. */
export function claimedAccessType(headers: Headers): string | null {
  return headers.get(headerNames.accessType) ?? headers.get(rebranded(headerNames.accessType));
}
