import { headerNames, SDK_CLIENT_VERSION, type AccessType, type HeaderFamily } from "../contract/headers.ts";
import { randomNonce, type RandomSource } from "../runtime/ids.ts";

/** The request headers of protocol.md §2.1, with the legacy `x-stack-*` names every backend accepts. */

/** The family those names are in: a service answers in it, so the SDK reads answers in it first (errors/decode.ts). */
export const SDK_HEADER_FAMILY: HeaderFamily = "stack";

export interface ProjectCredentials {
  projectId: string;
  accessType: AccessType;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
}

export interface RequestAuth {
  accessToken?: string | null;
  refreshToken?: string | null;
  adminAccessToken?: string | null;
  allowAnonymousUser?: boolean;
}

export function buildRequestHeaders(
  credentials: ProjectCredentials,
  auth: RequestAuth,
  random: RandomSource,
  extra: Record<string, string> = {},
): Record<string, string> {
  const h: Record<string, string> = {
    [headerNames.overrideErrorStatus]: "true",
    [headerNames.projectId]: credentials.projectId,
    [headerNames.accessType]: credentials.accessType,
    [headerNames.clientVersion]: SDK_CLIENT_VERSION,
    // A fresh nonce per request defeats any cache between us and the API (spec §7).
    [headerNames.randomNonce]: randomNonce(random),
  };
  if (auth.allowAnonymousUser) h[headerNames.allowAnonymousUser] = "true";
  if (credentials.publishableClientKey) h[headerNames.publishableClientKey] = credentials.publishableClientKey;
  // Keys of higher access levels are sent only by apps of that level (protocol.md §2.3: keys never substitute).
  if (credentials.accessType !== "client" && credentials.secretServerKey) {
    h[headerNames.secretServerKey] = credentials.secretServerKey;
  }
  if (credentials.accessType === "admin" && credentials.superSecretAdminKey) {
    h[headerNames.superSecretAdminKey] = credentials.superSecretAdminKey;
  }
  if (auth.adminAccessToken) h[headerNames.adminAccessToken] = auth.adminAccessToken;
  if (auth.accessToken) h[headerNames.accessToken] = auth.accessToken;
  if (auth.refreshToken) h[headerNames.refreshToken] = auth.refreshToken;
  // Configured extra headers are merged last (protocol.md §2.1).
  return { ...h, ...extra };
}
