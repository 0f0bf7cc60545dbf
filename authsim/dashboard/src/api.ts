import { callerHeaders } from "@authsim/sdk/contract";
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

/** An /api/v1 call as the selected project's server (or admin), the way an app's backend would make it. */
export function callApi<T = unknown>(project: ProjectEntry, access: Access, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {
    [DASHBOARD_HEADER]: "1",
    ...callerHeaders({
      accessType: access,
      projectId: project.id,
      ...(access === "server" ? { secretServerKey: project.secret_server_key } : { superSecretAdminKey: project.super_secret_admin_key }),
    }),
  };
  return fetch(`/api/v1${path}`, init(method, body, headers)).then((r) => answer<T>(r));
}

export const query = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== "")).toString();

// Wire shapes of /api/v1 the dashboard reads (a subset of the contract's, typed here: its schemas are not bundled).
export interface User {
  id: string;
  display_name: string | null;
  primary_email: string | null;
  primary_email_verified: boolean;
  signed_up_at_millis: number;
  last_active_at_millis: number;
  is_anonymous: boolean;
  has_password: boolean;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata: unknown;
  selected_team_id: string | null;
}
export interface ContactChannel {
  id: string;
  user_id: string;
  type: "email";
  value: string;
  is_verified: boolean;
  is_primary: boolean;
  used_for_auth: boolean;
}
export interface Team {
  id: string;
  display_name: string;
  created_at_millis: number;
  client_metadata?: unknown;
  server_metadata?: unknown;
}
export interface MemberProfile {
  team_id: string;
  user_id: string;
  display_name: string | null;
  user?: { primary_email: string | null };
}
export interface Session {
  id: string;
  user_id: string;
  created_at: number;
  last_used_at?: number;
  is_impersonation: boolean;
}
export interface ApiKey {
  id: string;
  description: string;
  created_at_millis: number;
  expires_at_millis?: number;
  manually_revoked_at_millis?: number;
  is_public: boolean;
  value: { last_four: string } | string;
}
export interface PermissionDefinition {
  id: string;
  description?: string;
  contained_permission_ids: string[];
}
// The emulator's own answers, typed by the control contract, so the dashboard cannot drift from what it sends.
export type { SentEmail as Email, RequestLogEntry as LogEntry, FaultRule } from "@authsim/sdk/emulator";
export interface List<T> {
  items: T[];
}

