import type { z } from "zod";
import {
  answerSchema,
  callerHeaders,
  operationsById,
  operationUrl,
  type AnswerSchema,
  type OperationCallParts,
  type OperationId,
  type QueryValue,
} from "@authsim/sdk/contract";
import { controlClient } from "@authsim/sdk/emulator";

/**
 * How the dashboard talks to the emulator: only its /__emulator control endpoints (through the control contract's
 * client, @authsim/sdk/emulator) and its /api/v1 with the selected project's keys (same origin, so no CORS and no
 * configuration). Every /api/v1 call carries the dashboard header, so the request log can tell the dashboard's own
 * traffic from the app's.
 */
export const DASHBOARD_HEADER = "x-authsim-dashboard";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }
}

async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    let code = response.headers.get("x-stack-known-error");
    try {
      const body = JSON.parse(text) as { error?: unknown; code?: unknown; issues?: unknown };
      if (typeof body.error === "string") message = body.error;
      if (Array.isArray(body.issues)) message += `: ${body.issues.join("; ")}`;
      if (typeof body.code === "string") code = body.code;
    } catch {
      // A plain-text answer: the text is the message.
    }
    throw new ApiError(response.status, code, message || `HTTP ${response.status}`);
  }
  return (text.length > 0 ? JSON.parse(text) : null) as T;
}

/** State-changing calls are JSON even without a body, as the control plane's are (safety/request-guard.ts). */
function init(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  const json = method === "GET" || method === "HEAD" ? headers : { ...headers, "content-type": "application/json" };
  return body === undefined ? { method, headers: json } : { method, headers: json, body: JSON.stringify(body) };
}

/** The control plane, on the page's own origin. */
export const control = controlClient({ baseUrl: "" });

export type { ProjectEntry } from "@authsim/sdk/emulator";
import type { ProjectEntry } from "@authsim/sdk/emulator";

export type Access = "server" | "admin";

/** The parts of an /api/v1 call of one operation (params, query, body), typed by its contract definition. */
export type Call<Id extends OperationId> = OperationCallParts<Id, "server">;
/** What an operation answers the dashboard (server and admin calls get the server view). */
export type Answer<Id extends OperationId> = z.output<AnswerSchema<Id, "server">>;

/**
 * A contract operation called as the selected project's server (or admin), the way an app's backend would call it:
 * method and path from the operation's definition, the answer parsed with its answer schema. The dashboard names no
 * path and no wire shape of its own.
 */
export async function callOperation<Id extends OperationId>(
  project: ProjectEntry,
  access: Access,
  id: Id,
  ...[call]: Record<never, never> extends Call<Id> ? [Call<Id>?] : [Call<Id>]
): Promise<Answer<Id>> {
  const parts = (call ?? {}) as { params?: Record<string, string>; query?: Record<string, QueryValue>; body?: unknown };
  const headers: Record<string, string> = {
    [DASHBOARD_HEADER]: "1",
    ...callerHeaders({
      accessType: access,
      projectId: project.id,
      ...(access === "server"
        ? { secretServerKey: project.secret_server_key }
        : { superSecretAdminKey: project.super_secret_admin_key }),
    }),
  };
  const operation = operationsById.get(id)!;
  const json = await fetch(`/api/v1${operationUrl(id, parts)}`, init(operation.method, parts.body, headers)).then((r) =>
    answer<unknown>(r),
  );
  const schema = operation.responses.some((r) => r.kind === "json") ? answerSchema(id, "server") : null;
  return (schema ? schema.parse(json) : json) as Answer<Id>;
}

// The /api/v1 shapes the panels pass around: the contract's answers (the server view).
export type User = Answer<"getUser">;
export type Team = Answer<"getTeam">;

// The emulator's own answers, typed by the control contract, so the dashboard cannot drift from what it sends.
export type { SentEmail as Email, RequestLogEntry as LogEntry, FaultRule } from "@authsim/sdk/emulator";
export interface List<T> {
  items: T[];
}
