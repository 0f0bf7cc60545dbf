import { isDeepStrictEqual } from "node:util";
import type { ProviderSnapshot } from "@authsim/fake-provider";
import {
  headerName,
  headerNames,
  isKnownErrorCode,
  knownErrorSpec,
  rebranded,
  type HeaderFamily,
  type Operation,
} from "@authsim/sdk/contract";
import { plainTextAllowed } from "./plain-text.ts";

/**
 * The invariants every answer of the provider keeps, whatever it was sent (protocol.md §1–3): no 5xx at all (every
 * operation of the contract is built, so not even a 501); known errors in the catalogue's wire shape; plain text only
 * where the protocol has it; override-error-status honoured; the answer's headers in the request's family only (never
 * both, protocol.md §0); no password hash anywhere; no secret of the request echoed in an error.
 * Each check returns problems as text, so a failing property names all of them at once.
 */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export interface Sent {
  method: string;
  /** Under /api/: the override convention and the common headers apply only there. */
  api: boolean;
  override: boolean;
  /** The header family the request used (contract headerFamilyOf): the answer's must be that one alone. */
  family: HeaderFamily;
  /** Everything the request carried (url, header values, body), to look for echoed secrets in. */
  carried: string;
}

/** Details keys the catalogue lists but the message marks optional ("[ Project ID: ⟨p⟩.]", protocol.md §3.2). */
const optionalDetails: Partial<Record<string, readonly string[]>> = {
  ACCESS_TOKEN_EXPIRED: ["project_id", "user_id", "refresh_token_id"],
};

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const record = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** The status the provider meant: the actual-status header (of either family) when the answer was overridden to 200. */
export function realStatus(answer: Answer): number {
  const actual =
    answer.headers.get(headerNames.actualStatus) ?? answer.headers.get(rebranded(headerNames.actualStatus));
  return actual === null ? answer.status : Number(actual);
}

const otherPrefix = (family: HeaderFamily) => (family === "stack" ? "x-hexclave-" : "x-stack-");

export function checkAnswer(operation: Operation, sent: Sent, answer: Answer, secrets: readonly string[]): string[] {
  const problems: string[] = [];
  const foreign = [...answer.headers.keys()].filter((name) => name.startsWith(otherPrefix(sent.family)));
  if (foreign.length > 0)
    problems.push(`a request in the x-${sent.family}-* family answered with ${foreign.join(", ")}`);
  const actual = answer.headers.get(headerName("actualStatus", sent.family));
  const status = realStatus(answer);
  if (actual !== null) {
    if (!sent.override) problems.push("actual-status sent without override-error-status in the request");
    if (answer.status !== 200) problems.push(`overridden answer has HTTP status ${answer.status}, not 200`);
    if (!(status >= 400 && status < 500)) problems.push(`actual-status ${actual} is not a 4xx`);
  } else if (sent.override && sent.api && answer.status >= 400 && answer.status < 500) {
    problems.push(`override-error-status requested, but the ${answer.status} was not turned into 200`);
  }

  if (sent.method === "HEAD") {
    // A HEAD answer has headers only: nothing more to read than that it is no server error and carries no body.
    if (status >= 500) problems.push(`server error ${status} on HEAD`);
    if (answer.text !== "") problems.push("a HEAD answer with a body");
    return problems;
  }
  const body = parse(answer.text);
  if (status >= 500) problems.push(`server error ${status}: ${answer.text.slice(0, 600)}`);
  if (answer.text.includes("pbkdf2")) problems.push("the answer contains a password hash (pbkdf2)");

  const code = answer.headers.get(headerName("knownError", sent.family));
  if (code !== null) problems.push(...checkKnownError(code, status, answer, body));
  else if (status >= 400) {
    const contentType = answer.headers.get("content-type") ?? "";
    // RFC 6749's error JSON: the token endpoint's, and every answer of the integrations' OpenID Connect provider.
    const oauthJson =
      (operation.id === "oauthToken" || /^(neon|custom)Idp/.test(operation.id)) &&
      typeof record(body)?.error === "string" &&
      typeof record(body)?.error_description === "string";
    // The AI proxy passes its model provider's JSON errors on ({error: {message, code}}), as upstream does.
    const providerJson = operation.area === "ai-proxy" && record(record(body)?.error) !== null;
    const allowedText = contentType.startsWith("text/plain") && plainTextAllowed(operation.id, status, answer.text);
    // A method the path's route does not serve: the real service's framework answers an empty 405 (protocol.md §1).
    const emptyMethodNotAllowed = status === 405 && answer.text === "";
    if (!oauthJson && !providerJson && !allowedText && !emptyMethodNotAllowed)
      problems.push(
        `a ${status} that is neither a known error nor a plain text the protocol has: ${contentType} ${answer.text.slice(0, 300)}`,
      );
  }

  if (status >= 400) {
    // SCHEMA_ERROR names unknown properties verbatim (protocol.md §1); a JSON body sent as a form arrives as one
    // property named by the whole JSON text. That listing is the wire's, so it is not counted as an echo.
    // In the JSON text the listing runs to the escaped newline or the closing quote of the message.
    const echoed = answer.text.replace(/contains unknown properties: (?:[^"\\]|\\[^n])*/g, "");
    for (const secret of secrets) {
      if (secret.length >= 16 && sent.carried.includes(secret) && echoed.includes(secret))
        problems.push(`the error echoes a secret of the request: ${secret.slice(0, 12)}…`);
    }
  }
  return problems;
}

function checkKnownError(code: string, status: number, answer: Answer, body: unknown): string[] {
  const problems: string[] = [];
  const content = answer.headers.get("content-type");
  if (content !== "application/json; charset=utf-8") problems.push(`known error ${code} with content-type ${content}`);
  const parsed = record(body);
  if (!parsed) return [...problems, `known error ${code} without a JSON object body: ${answer.text.slice(0, 200)}`];
  if (parsed.code !== code) problems.push(`header code ${code} but body.code ${String(parsed.code)}`);
  if (!isKnownErrorCode(code)) return [...problems, `${code} is not in the catalogue`];
  const spec = knownErrorSpec(code);
  if (spec.abstract) problems.push(`${code} is abstract and never sent`);
  if (spec.status !== status) problems.push(`${code} answered with ${status}, the catalogue says ${spec.status}`);
  if (typeof parsed.error !== "string" || parsed.error.length === 0) problems.push(`${code} without an error message`);
  if (spec.details.length > 0) {
    const details = record(parsed.details);
    if (!details) problems.push(`${code} without details (the catalogue lists ${spec.details.join(", ")})`);
    else {
      const missing = spec.details.filter((k) => !(k in details) && !optionalDetails[code]?.includes(k));
      if (missing.length > 0) problems.push(`${code} details lack ${missing.join(", ")}`);
    }
  }
  return problems;
}

/**
 * What a request changed in the store. A refused request may leave only failed-guess counts on verification codes
 * (ctx.keepOnFailure) and a signing key created on first use; anything else is a leak.
 */
export function stateChanges(before: ProviderSnapshot["store"], after: ProviderSnapshot["store"]): string[] {
  const problems: string[] = [];
  const names = new Set([...Object.keys(before.tables), ...Object.keys(after.tables)]);
  for (const name of names) {
    const was = new Map(before.tables[name] ?? []);
    const now = new Map(after.tables[name] ?? []);
    for (const [id, row] of now) {
      if (!was.has(id)) {
        if (name !== "signingKeys") problems.push(`${name}: row ${id} added`);
      } else if (
        !isDeepStrictEqual(was.get(id), row) &&
        !(name === "verificationCodes" && onlyKeptOnFailure(was.get(id), row))
      ) {
        problems.push(
          `${name}: row ${id} changed: ${JSON.stringify(was.get(id)).slice(0, 300)} → ${JSON.stringify(row).slice(0, 300)}`,
        );
      }
    }
    for (const id of was.keys()) if (!now.has(id)) problems.push(`${name}: row ${id} deleted`);
  }
  return problems;
}

/**
 * What a refused request may leave on a verification code, as the real service leaves it: more failed attempts, and
 * the code spent (the real service marks a code used before the route's handler runs, so a refusal after that keeps
 * it used; spendCode in fake-provider's verification-codes.ts).
 */
function onlyKeptOnFailure(before: unknown, after: unknown): boolean {
  const was = record(before);
  const now = record(after);
  if (!was || !now || typeof was.attemptCount !== "number" || typeof now.attemptCount !== "number") return false;
  const spent = was.usedAtMillis === null && typeof now.usedAtMillis === "number";
  if (now.attemptCount < was.attemptCount || (now.attemptCount === was.attemptCount && !spent)) return false;
  return isDeepStrictEqual(
    { ...was, attemptCount: 0, usedAtMillis: spent ? null : was.usedAtMillis },
    { ...now, attemptCount: 0, usedAtMillis: spent ? null : now.usedAtMillis },
  );
}
