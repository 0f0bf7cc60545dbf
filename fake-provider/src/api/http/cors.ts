import { headerNames, rebranded } from "@authsim/sdk/contract";

/**
 * CORS for /api/* (protocol.md §1): every request header of both families must be allowed, or a browser SDK's calls
 * fail preflight.
 */
const stackRequestHeaders = [
  headerNames.projectId,
  headerNames.branchId,
  headerNames.overrideErrorStatus,
  headerNames.randomNonce,
  headerNames.clientVersion,
  "x-stack-disable-artificial-development-delay",
  headerNames.accessType,
  headerNames.publishableClientKey,
  headerNames.secretServerKey,
  headerNames.superSecretAdminKey,
  headerNames.adminAccessToken,
  headerNames.refreshToken,
  headerNames.accessToken,
  headerNames.allowAnonymousUser,
  headerNames.allowRestrictedUser,
];

export const corsHeaders: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-max-age": "86400",
  "access-control-allow-headers": [
    "content-type",
    "authorization",
    ...stackRequestHeaders,
    ...stackRequestHeaders.map(rebranded),
    "baggage",
    "sentry-trace",
    "ngrok-skip-browser-warning",
  ].join(", "),
  "access-control-expose-headers": [
    "content-type",
    headerNames.actualStatus,
    headerNames.knownError,
    rebranded(headerNames.actualStatus),
    rebranded(headerNames.knownError),
  ].join(", "),
};
