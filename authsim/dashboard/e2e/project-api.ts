import { expect } from "vitest";
import { callerHeaders, type AccessType } from "@authsim/sdk/contract";

/** A project's id and keys as the emulator's control plane lists them. */
export interface ProjectKeys {
  id: string;
  publishable_client_key: string;
  secret_server_key: string;
  super_secret_admin_key: string;
}

export const PASSWORD = "correct horse battery";

/** An /api/v1 answer as a test reads it: status, known-error code, parsed body (or the plain text) and redirect. */
export interface ApiAnswer {
  status: number;
  code: string | null;
  body: Record<string, unknown>;
  location: string | null;
}

/**
 * /api/v1 calls as an app makes them, with a project's keys up to the access type (callerHeaders drops those above
 * it). The server and the project are read when a call is made: the suites learn them in their beforeAll and first case.
 */
export function projectApi(baseUrl: () => string, project: () => ProjectKeys) {
  const headers = (access: AccessType, extra: Record<string, string> = {}): Record<string, string> => ({
    ...callerHeaders({
      accessType: access,
      projectId: project().id,
      publishableClientKey: project().publishable_client_key,
      secretServerKey: project().secret_server_key,
      superSecretAdminKey: project().super_secret_admin_key,
    }),
    ...extra,
  });
  const call = async (
    access: "client" | "server" | "admin",
    method: string,
    path: string,
    json?: unknown,
    extra: Record<string, string> = {},
  ): Promise<ApiAnswer> => {
    const response = await fetch(`${baseUrl()}/api/v1${path}`, {
      method,
      redirect: "manual",
      headers: { ...headers(access, extra), ...(json === undefined ? {} : { "content-type": "application/json" }) },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Plain text (a refusal the real service answers as text).
    }
    return {
      status: response.status,
      code: response.headers.get("x-stack-known-error"),
      body: body as Record<string, unknown>,
      location: response.headers.get("location"),
    };
  };
  // A password only where the case signs in with one: once a case turns password sign-in off, the users endpoint
  // refuses a password as the real one does.
  const newUser = async (email: string, withPassword = false) => {
    const user = await call("server", "POST", "/users", {
      primary_email: email,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      ...(withPassword && { password: PASSWORD }),
    });
    expect(user.status).toBe(201);
    return user.body.id as string;
  };
  return { call, newUser };
}
