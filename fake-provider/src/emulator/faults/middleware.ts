import type { MiddlewareHandler } from "hono";
import { splitApiPath, type ConcreteKnownErrorCode } from "@authsim/sdk/contract";
import { stackHeader } from "../../api/auth/headers.ts";
import { corsHeaders } from "../../api/http/cors.ts";
import { familyOf } from "../../api/http/family.ts";
import { KnownErrorException } from "../../domain/errors/known-error.ts";
import { urlOf } from "../../api/http/request-url.ts";
import { knownErrorResponse } from "../../api/http/respond.ts";
import { note } from "../request-log/trace.ts";
import type { Faults } from "./faults.ts";
import type { FaultRule } from "./rules.ts";

/** How the request log names a fired rule (its "why"). */
function describeRule(rule: FaultRule): string {
  const a = rule.action;
  const what =
    a.type === "status"
      ? `forced status ${a.status}`
      : a.type === "known-error"
        ? `forced known error ${a.code}`
        : a.type === "latency"
          ? `added ${a.millis} ms latency`
          : "dropped the connection";
  return `fault rule ${rule.id} (${rule.method ?? "any method"} ${rule.path}): ${what}`;
}

/** Thrown to make the whole exchange fail like a dropped connection (see app.ts onError and `provider.fetch`). */
export class DroppedConnection extends TypeError {
  constructor() {
    super("fetch failed: the connection was dropped by an authsim fault rule");
  }
}

interface NodeBindings {
  incoming?: { socket?: { destroy(): void } };
}

/**
 * Applies matching fault rules before any route runs. A forced known error is answered exactly as a real one (both
 * headers, the common API headers, override-error-status); a forced status keeps its status but carries the CORS
 * headers, so a browser client sees the status rather than a CORS failure.
 */
export function faultMiddleware(
  faults: Faults,
  sleep: (millis: number) => Promise<void>,
  finishKnownError: (response: Response, request: Request) => Response,
): MiddlewareHandler {
  return async (c, next) => {
    if (faults.none()) return next();
    const url = urlOf(c.req.raw);
    // Rule paths are relative to the API prefix, so a rule for /users/me fires under /api/v1 and /api/latest alike.
    const path = splitApiPath(url.pathname)?.path ?? url.pathname;
    const fired = faults.take({ method: c.req.method, path, projectId: stackHeader(c.req.raw.headers, "projectId") });
    // Latency rules first, then at most one answering rule: `take` spent exactly the rules acted on below.
    for (const rule of fired) {
      const action = rule.action;
      note(c.req.raw, describeRule(rule));
      if (action.type === "latency") {
        await sleep(action.millis);
        continue;
      }
      if (action.type === "drop") {
        // Over a port, end the socket; in process, reject the fetch.
        (c.env as NodeBindings | undefined)?.incoming?.socket?.destroy();
        throw new DroppedConnection();
      }
      if (action.type === "known-error") {
        return finishKnownError(
          knownErrorResponse(
            new KnownErrorException(action.code as ConcreteKnownErrorCode, action.details),
            familyOf(c.req.raw),
          ),
          c.req.raw,
        );
      }
      return new Response(action.body ?? "", { status: action.status, headers: { ...corsHeaders, ...action.headers } });
    }
    await next();
  };
}
