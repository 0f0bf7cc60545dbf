import type { MiddlewareHandler } from "hono";
import type { Clock } from "@authsim/sdk/runtime";
import { stackHeader } from "../../api/auth/headers.ts";
import { DroppedConnection } from "../faults/middleware.ts";
import { answerHeader } from "../../api/http/family.ts";
import { urlOf } from "../../api/http/request-url.ts";
import { redactQuery, redactText } from "./redact.ts";
import type { RequestLog } from "./request-log.ts";
import { stopwatch } from "./stopwatch.ts";
import { beginTrace, traceOf } from "./trace.ts";

/** The header the dashboard adds to its own /api/v1 calls (the log can then hide them). */
export const DASHBOARD_HEADER = "x-authsim-dashboard";

const redactNullable = (value: string | null): string | null => (value === null ? null : redactText(value));

/** A default "why" when no rule left a note: a plain success, or a path that names no operation. */
function defaultWhy(status: number | null, operationId: string | null): string {
  if (operationId !== null) return `op ${operationId} answered ${status ?? "nothing"}`;
  if (status === 404) return "no operation of the contract has this path (plain-text 404)";
  if (status === 405) return "no operation of the contract has this method (405)";
  return `answered ${status ?? "nothing"}`;
}

/**
 * Records every /api/* exchange, outermost, so fault rules, latency and the dropped connection are logged too. The
 * recorded status is the one the client really got (override-error-status moves it to x-*-actual-status).
 * Headers and bodies are never recorded, and what is (path, query, why) is redacted first (redact.ts): the log is
 * shown and exported, so it must hold no secret.
 */
export function requestLogMiddleware(log: RequestLog, clock: Clock): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    beginTrace(request);
    const url = urlOf(request);
    const atMillis = clock.now();
    const elapsed = stopwatch();
    const write = (status: number | null, knownError: string | null) => {
      const trace = traceOf(request);
      log.record({
        atMillis,
        method: request.method,
        path: redactText(url.pathname),
        query: redactQuery(url.search.replace(/^\?/, "")),
        // Both are the caller's words, valid or not: a token pasted into the wrong header is masked like any other.
        projectId: redactNullable(stackHeader(request.headers, "projectId")),
        accessType: redactNullable(stackHeader(request.headers, "accessType")),
        userId: trace.userId,
        operationId: trace.operationId,
        status,
        knownError,
        durationMillis: elapsed(),
        why: trace.why.length > 0 ? trace.why.map(redactText) : [defaultWhy(status, trace.operationId)],
        fromDashboard: request.headers.get(DASHBOARD_HEADER) !== null,
      });
    };
    try {
      await next();
    } catch (error) {
      // A dropped connection (the only error app.onError lets through) is logged as an exchange with no answer.
      if (!(error instanceof DroppedConnection)) traceOf(request).why.push(`pipeline: ${String(error)}`);
      write(null, null);
      throw error;
    }
    // A route's own answer, unchanged, has neither header: it is logged without reading its headers (the dev server's
    // lightweight answer would build a Headers object only to be read here).
    if (traceOf(request).plainAnswer === c.res) return write(c.res.status, null);
    const actual = answerHeader(c.res.headers, "actualStatus");
    write(actual !== null ? Number(actual) : c.res.status, answerHeader(c.res.headers, "knownError"));
  };
}
