import { decodeBasicAuthorization } from "@authsim/sdk/contract";
import { schemaError } from "../../errors/schema-error.ts";
import type { OpContext } from "../context.ts";

/**
 * The integration clients the service knows (upstream: STACK_INTEGRATION_CLIENTS_CONFIG, one list for every family:
 * either client may call Neon's routes and the custom ones). The emulator knows the real development environment's two,
 * with their secrets and registered redirect URIs as that environment publishes them (apps/backend/.env.development),
 * so an integration written against the real dev setup works unchanged. They are development credentials, not secrets.
 */
export interface IntegrationClient {
  clientId: string;
  clientSecret: string;
  redirectUris: readonly string[];
}

const devRedirectUris = [
  "http://localhost:30000/api/v2/identity/authorize",
  "http://localhost:30000/api/v2/auth/authorize",
];
export const integrationClients: readonly IntegrationClient[] = [
  { clientId: "neon-local", clientSecret: "neon-local-secret", redirectUris: devRedirectUris },
  { clientId: "custom-local", clientSecret: "custom-local-secret", redirectUris: devRedirectUris },
];

export const findIntegrationClient = (clientId: string): IntegrationClient | undefined =>
  integrationClients.find((c) => c.clientId === clientId);

/** The client whose Basic credentials these are (their shape is the contract's check, before this). */
export function clientOfCredentials(authorization: string | undefined): IntegrationClient | null {
  const decoded = authorization === undefined ? null : decodeBasicAuthorization(authorization);
  if (!decoded) return null;
  const client = findIntegrationClient(decoded[0]);
  return client && client.clientSecret === decoded[1] ? client : null;
}

/**
 * The calling client, or the SCHEMA_ERROR upstream's header schema gives for credentials no client has (its one line,
 * under the request's method and path).
 */
export function requireIntegrationClient(
  where: { method: string; pathname: string },
  authorization: string | undefined,
): IntegrationClient {
  const client = clientOfCredentials(authorization);
  if (!client)
    throw schemaError(where, [
      "Invalid client_id:client_secret values; did you use the correct values for the integration?",
    ]);
  return client;
}

/**
 * Where the real service's dashboard is: links into it (a transfer's confirmation, the identity provider's consent
 * page) point there. Unset, the development layout's: the API's origin with its port's last two digits made 01
 * (8102 → 8101), as the real development environment runs them.
 */
export function dashboardOrigin(ctx: OpContext): string {
  if (ctx.settings.dashboardUrl) return ctx.settings.dashboardUrl.replace(/\/+$/, "");
  const api = new URL(ctx.settings.apiBaseUrl);
  if (/^\d*02$/.test(api.port)) api.port = `${api.port.slice(0, -2)}01`;
  return api.origin;
}
