import { expect } from "vitest";
import { API_PREFIX, callerHeaders, INTERNAL_PROJECT_ID, type AccessType } from "@authsim/sdk/contract";
import { internalProjectSeed } from "@authsim/fixtures";
import type { InProcessTarget } from "../targets.ts";
import { PASSWORD, uniqueEmail } from "./support.ts";

/**
 * Successful calls of the operations no conformance suite makes (our SDK has no method for them, or the suites reach
 * them only through an error), so response-schemas.test.ts can hold their answers to the contract too. Raw HTTP with
 * the target's keys: each call must succeed, and the check after the case looks at what it answered.
 */

export interface Call {
  method?: string;
  access?: AccessType;
  accessToken?: string;
  refreshToken?: string;
  json?: unknown;
  /** A body sent exactly as given (a signed webhook), with these extra headers. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export async function call<T = Record<string, unknown>>(
  target: InProcessTarget,
  path: string,
  options: Call = {},
): Promise<T> {
  // The target's keys up to the access type (callerHeaders drops those above it), and the tokens given.
  const headers: Record<string, string> = options.access
    ? callerHeaders({
        ...target,
        accessType: options.access,
        accessToken: options.accessToken,
        refreshToken: options.refreshToken,
      })
    : {};
  if (options.json !== undefined) headers["content-type"] = "application/json";
  Object.assign(headers, options.headers);
  const body = options.rawBody ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
  const method = options.method ?? (body === undefined ? "GET" : "POST");
  const response = await target.fetch(`${target.baseUrl}${API_PREFIX}${path}`, { method, headers, body });
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return (response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text) as T;
}

export type Tokens = { access_token: string; refresh_token: string; user_id: string };

export async function signUp(
  target: InProcessTarget,
  email = uniqueEmail("extra"),
): Promise<Tokens & { email: string }> {
  const tokens = await call<Tokens>(target, "/auth/password/sign-up", {
    access: "client",
    json: { email, password: PASSWORD },
  });
  return { ...tokens, email };
}

/** The same target on the internal project (the dashboard's own), with its keys: for the routes only it serves. */
export function internalTargetOf(target: InProcessTarget): InProcessTarget {
  return {
    ...target,
    projectId: INTERNAL_PROJECT_ID,
    publishableClientKey: internalProjectSeed.keys.publishable_client_key,
    secretServerKey: internalProjectSeed.keys.secret_server_key,
    superSecretAdminKey: internalProjectSeed.keys.super_secret_admin_key,
  };
}
