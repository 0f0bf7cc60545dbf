import { KnownErrorException, StatusError } from "../../domain/errors/known-error.ts";
import { isSecretName, mask } from "./redact.ts";

/**
 * What the pipeline learns about one request while answering it, for the request log's "why". Keyed by the Request
 * object (the same object travels through every middleware and handler), so no signature in the pipeline changes and
 * nothing leaks between requests or providers.
 */
export interface Trace {
  why: string[];
  operationId: string | null;
  userId: string | null;
  /**
   * The answer a route built from its result (api/routes/mount.ts), when it is what the client gets: it carries no known
   * error and no actual status, so the log records its status without reading its headers.
   */
  plainAnswer?: Response;
}

const traces = new WeakMap<Request, Trace>();

export function traceOf(request: Request): Trace {
  let trace = traces.get(request);
  if (!trace) {
    trace = { why: [], operationId: null, userId: null };
    traces.set(request, trace);
  }
  return trace;
}

/** A fresh trace for a request entering the pipeline (a caller may send the same GET Request object twice). */
export function beginTrace(request: Request): void {
  traces.set(request, { why: [], operationId: null, userId: null });
}

export function note(request: Request, why: string): void {
  traceOf(request).why.push(why);
}

/** Where in api/routes/mount.ts a request was when it failed (protocol.md §1–2: body, then auth, then access, then schema). */
export type PipelineStage = "body" | "auth" | "access" | "schema" | "op" | "pipeline";

/** The step of protocol.md §2.3 (parse-auth.ts) that throws each code: the log names the step, not just the code. */
const authSteps: Record<string, number> = {
  PROJECT_KEY_WITHOUT_ACCESS_TYPE: 2,
  INVALID_ACCESS_TYPE: 3,
  ACCESS_TYPE_WITHOUT_PROJECT_ID: 4,
  UNPARSABLE_ACCESS_TOKEN: 5,
  ACCESS_TOKEN_EXPIRED: 5,
  INVALID_PROJECT_FOR_ACCESS_TOKEN: 5,
  ANONYMOUS_AUTHENTICATION_NOT_ALLOWED: 5,
  RESTRICTED_USER_NOT_ALLOWED: 5,
  CURRENT_PROJECT_NOT_FOUND: 6,
  PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT: 7,
  INVALID_PUBLISHABLE_CLIENT_KEY: 7,
  SERVER_AUTHENTICATION_REQUIRED: 7,
  ADMIN_AUTHENTICATION_REQUIRED: 7,
  INVALID_SECRET_SERVER_KEY: 7,
  INVALID_SUPER_SECRET_ADMIN_KEY: 7,
  ADMIN_ACCESS_TOKEN_EXPIRED: 7,
  UNPARSABLE_ADMIN_ACCESS_TOKEN: 7,
  ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN: 7,
  BRANCH_DOES_NOT_EXIST: 8,
};

function stageLabel(stage: PipelineStage, operationId: string | null, error: unknown): string {
  switch (stage) {
    case "body":
      return "body parsing";
    case "auth": {
      const step =
        error instanceof KnownErrorException ? authSteps[error.code] : error instanceof StatusError ? 7 : undefined;
      return step === undefined ? "parseAuth" : `parseAuth step ${step}`;
    }
    case "access":
      return "access check";
    case "schema":
      return "schema";
    case "op":
      return `op ${operationId ?? "?"}`;
    case "pipeline":
      return "pipeline";
  }
}

/** SCHEMA_ERROR messages list one problem per "  - " line (api/http/parse.ts): the log shows each problem on its own. */
function schemaProblems(message: string): string[] {
  const lines = message
    .split("\n")
    .filter((l) => l.startsWith("  - "))
    .map((l) => l.slice(4));
  return lines.length > 0 ? lines : [message];
}

/**
 * A known error's message with the details named like secrets masked (e.g. DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST
 * quotes the hashed key): the caller gets the full message, the request log does not (redact.ts).
 */
function withoutSecretDetails(error: KnownErrorException): string {
  let message = error.message;
  for (const [name, value] of Object.entries(error.details ?? {})) {
    if (isSecretName(name) && typeof value === "string" && value.length > 0)
      message = message.split(value).join(mask(value));
  }
  return message;
}

/** Records why a request failed at `stage` with `error` (called where the pipeline turns errors into answers). */
export function explainFailure(request: Request, stage: PipelineStage, error: unknown): void {
  const trace = traceOf(request);
  const label = stageLabel(stage, trace.operationId, error);
  if (error instanceof KnownErrorException && error.code === "SCHEMA_ERROR") {
    const prefix = stage === "schema" ? "schema" : `${label}: schema`;
    for (const problem of schemaProblems(error.message)) trace.why.push(`${prefix}: ${problem}`);
  } else if (error instanceof KnownErrorException) {
    trace.why.push(`${label}: ${error.code} — ${withoutSecretDetails(error)}`);
  } else if (error instanceof StatusError) {
    trace.why.push(`${label}: ${error.status} — ${error.message}`);
  } else {
    trace.why.push(`${label}: unexpected error (500) — ${error instanceof Error ? error.message : String(error)}`);
  }
}
