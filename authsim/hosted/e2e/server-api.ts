import { devProjectSeed as dev } from "@authsim/fixtures";
import { callerHeaders } from "@authsim/sdk/contract";

/**
 * A project's server API over HTTP, for what a test checks or arranges behind the pages' back (who exists, what the
 * provider recorded). The dev project by default (fixed keys from its seed).
 */
export interface ServerKeys {
  projectId: string;
  secretServerKey: string;
}
const devKeys: ServerKeys = { projectId: dev.id, secretServerKey: dev.keys.secret_server_key };

export interface ServerUser {
  id: string;
  primary_email: string | null;
  primary_email_verified: boolean;
  display_name: string | null;
  has_password: boolean;
  passkey_auth_enabled: boolean;
  requires_totp_mfa: boolean;
  selected_team_id: string | null;
  oauth_providers: { id: string; account_id: string; email?: string | null }[];
}

export interface ServerApi {
  call<T>(method: string, path: string, json?: unknown): Promise<T>;
  userByEmail(email: string): Promise<ServerUser>;
}

export function serverApi(baseUrl: string, keys: ServerKeys = devKeys): ServerApi {
  const serverHeaders = callerHeaders({ accessType: "server", projectId: keys.projectId, secretServerKey: keys.secretServerKey });
  const call = async <T>(method: string, path: string, json?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { ...serverHeaders, ...(json === undefined ? {} : { "content-type": "application/json" }) },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    call,
    async userByEmail(email) {
      const { items } = await call<{ items: ServerUser[] }>("GET", `/users?query=${encodeURIComponent(email)}`);
      const user = items.find((u) => u.primary_email === email);
      if (!user) throw new Error(`No user with the email ${email}`);
      return user;
    },
  };
}
