import {
  callerHeaders,
  headerNames,
  SDK_CLIENT_VERSION,
  type AccessType,
  type HeaderFamily,
} from "../contract/headers.ts";
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
  return {
    [headerNames.overrideErrorStatus]: "true",
    [headerNames.clientVersion]: SDK_CLIENT_VERSION,
    // A fresh nonce per request defeats any cache between us and the API (spec §7).
    [headerNames.randomNonce]: randomNonce(random),
    ...(auth.allowAnonymousUser ? { [headerNames.allowAnonymousUser]: "true" } : {}),
    // The project, access type, keys (none above the app's level: protocol.md §2.3) and tokens.
    ...callerHeaders({ ...credentials, ...auth }),
    // Configured extra headers are merged last (protocol.md §2.1).
    ...extra,
  };
}
