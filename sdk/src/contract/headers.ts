/**
 * Header names and the business constants of spec §9, in one place.
 * Our SDK sends the legacy `x-stack-*` names (every backend accepts them); the fake provider accepts both families and
 * answers in the family the request used (protocol.md §0, §2).
 */
export const API_PREFIX = "/api/v1";
/**
 * Every prefix the API answers under: the real service serves its newest API at `/api/latest` and rewrites `/api/v1`
 * onto it (protocol.md §1, "Versioning"), so both reach the same operations. `API_PREFIX` is the one clients use.
 */
export const API_PREFIXES = [API_PREFIX, "/api/latest"] as const;

/** The API prefix `pathname` is under and the path after it ("/" for the root), or null outside the API. */
export function splitApiPath(pathname: string): { prefix: string; path: string } | null {
  for (const prefix of API_PREFIXES) {
    if (pathname === prefix) return { prefix, path: "/" };
    if (pathname.startsWith(`${prefix}/`)) return { prefix, path: pathname.slice(prefix.length) };
  }
  return null;
}

export const headerNames = {
  accessType: "x-stack-access-type",
  projectId: "x-stack-project-id",
  branchId: "x-stack-branch-id",
  clientVersion: "x-stack-client-version",
  accessToken: "x-stack-access-token",
  refreshToken: "x-stack-refresh-token",
  publishableClientKey: "x-stack-publishable-client-key",
  secretServerKey: "x-stack-secret-server-key",
  superSecretAdminKey: "x-stack-super-secret-admin-key",
  adminAccessToken: "x-stack-admin-access-token",
  allowAnonymousUser: "x-stack-allow-anonymous-user",
  allowRestrictedUser: "x-stack-allow-restricted-user",
  overrideErrorStatus: "x-stack-override-error-status",
  randomNonce: "x-stack-random-nonce",
  knownError: "x-stack-known-error",
  actualStatus: "x-stack-actual-status",
  requestId: "x-stack-request-id",
} as const;

export type HeaderKey = keyof typeof headerNames;

/** The post-rebrand family the published SDK sends (protocol.md §0): `x-hexclave-foo` means `x-stack-foo`. */
export const LEGACY_PREFIX = "x-stack-";
export const REBRANDED_PREFIX = "x-hexclave-";

export function rebranded(name: string): string {
  return name.startsWith(LEGACY_PREFIX) ? REBRANDED_PREFIX + name.slice(LEGACY_PREFIX.length) : name;
}

/**
 * The two header families. A service answers in one of them, the one its caller used: the April-2026 service knows
 * only `x-stack-*` (its own e2e suite asserts that no other header comes back), while the published SDK, which sends
 * `x-hexclave-*`, reads `x-hexclave-*` first and falls back to `x-stack-*`. Messages that name a header or the product
 * follow the same family (errors.ts).
 */
export const headerFamilies = ["stack", "hexclave"] as const;
export type HeaderFamily = (typeof headerFamilies)[number];
/** A request naming neither family is answered as the April-2026 service does: `x-stack-*` and "Stack Auth". */
export const DEFAULT_HEADER_FAMILY: HeaderFamily = "stack";

/** `key`'s header in `family`, e.g. ("knownError", "hexclave") → x-hexclave-known-error. */
export function headerName(key: HeaderKey, family: HeaderFamily): string {
  return family === "stack" ? headerNames[key] : rebranded(headerNames[key]);
}

/**
 * The family a request used, from its header names: `x-hexclave-*` if it carries any (the published SDK sends only
 * those; a request mixing both is answered in the newer family, which that SDK reads first), else `x-stack-*`.
 */
export function headerFamilyOf(names: Iterable<string>): HeaderFamily {
  for (const name of names) if (name.toLowerCase().startsWith(REBRANDED_PREFIX)) return "hexclave";
  return DEFAULT_HEADER_FAMILY;
}

export const accessTypes = ["client", "server", "admin"] as const;
export type AccessType = (typeof accessTypes)[number];

/** Who a request says it comes from: the project, the access type, keys and tokens (protocol.md §2). */
export interface CallerCredentials {
  accessType: AccessType;
  projectId: string;
  publishableClientKey?: string | null | undefined;
  secretServerKey?: string | null | undefined;
  superSecretAdminKey?: string | null | undefined;
  accessToken?: string | null | undefined;
  refreshToken?: string | null | undefined;
  adminAccessToken?: string | null | undefined;
}

/**
 * The headers that say who calls, in the `x-stack-*` family: every key and token given, except keys above the access
 * type (a client never sends the server's secret: protocol.md §2.3, keys never substitute for one another). For
 * requests built by hand — loaders, tools, test support — so the names and that rule are written once.
 */
export function callerHeaders(caller: CallerCredentials): Record<string, string> {
  const level = accessTypes.indexOf(caller.accessType);
  const sent: [HeaderKey, string | null | undefined][] = [
    ["publishableClientKey", caller.publishableClientKey],
    ["secretServerKey", level >= 1 ? caller.secretServerKey : null],
    ["superSecretAdminKey", level >= 2 ? caller.superSecretAdminKey : null],
    ["adminAccessToken", caller.adminAccessToken],
    ["accessToken", caller.accessToken],
    ["refreshToken", caller.refreshToken],
  ];
  const headers: Record<string, string> = {
    [headerNames.projectId]: caller.projectId,
    [headerNames.accessType]: caller.accessType,
  };
  for (const [key, value] of sent) if (value) headers[headerNames[key]] = value;
  return headers;
}

export const INTERNAL_PROJECT_ID = "internal";
export const DEFAULT_BRANCH_ID = "main";
/** The client secret sent to the token endpoint by an app without a publishable key (protocol.md §4.4). */
export const PUBLIC_CLIENT_SENTINEL = "__stack_public_client__";
export const SDK_CLIENT_VERSION = "js @authsim/sdk@0.1.0";

/** Spec §9. */
export const constants = {
  /** An access token used for a request must stay valid at least this long, else it is refreshed first. */
  accessTokenFreshnessMillis: 20_000,
  /** A caller may ask for at most this much remaining life (a fresh token is never guaranteed longer). */
  maxRequiredAccessTokenLifeMillis: 60_000,
  refreshTokenCookieMaxAgeSeconds: 31_536_000,
  accessTokenCookieMaxAgeSeconds: 86_400,
  oauthOuterStateCookieMaxAgeSeconds: 3_600,
  cookiePollMillis: 100,
  cacheRateLimiterConcurrency: 1,
  cacheThrottleMillis: 300,
  cacheInvalidateAfterLastSubscriberMillis: 5_000,
  redirectPauseMillis: 2_000,
  cliPollWaitMillis: 2_000,
  clientJwtAssertionLifetimeSeconds: 60,
  jwksCacheMillis: 300_000,
  serverSessionDefaultExpiresInMillis: 31_536_000_000,
  serverSessionMaxExpiresInMillis: 367 * 24 * 60 * 60 * 1000,
  serverSessionDefaultIsImpersonation: false,
  permissionListingRecursiveDefault: true,
  allowNegativeDefault: false,
  networkRetries: 5,
  networkRetryBaseMillis: 1_000,
  networkRetryJitterMin: 0.5,
  networkRetryJitterMax: 1.5,
  maxWaitMillis: 2_147_483_647,
  oauthPkceMethod: "S256",
  oauthResponseType: "code",
  oauthScope: "legacy",
  dataVault: {
    algorithm: "AES-GCM",
    keyBits: 256,
    ivBytes: 12,
    saltBytes: 16,
    versionBytes: [1, 0],
    pbkdf2Iterations: 100_000,
    derivedBits: 256,
  },
  randomIdBits: 224,
} as const;

/** Spec §8, transport. */
export const OFFLINE_MESSAGE = "You are offline. Please check your internet connection and try again.";
/** The body marker of a 508 the SDK retries (protocol.md §9). */
export const INFINITE_LOOP_MARKER = "INFINITE_LOOP_DETECTED";

/** Cookie names of the browser token store (spec §9): the refresh cookie carries the project id. */
export const cookieNames = {
  accessToken: "stack-access",
  refreshToken: (projectId: string) => `stack-refresh-${projectId}`,
  oauthOuterState: (state: string) => `stack-oauth-outer-${state}`,
} as const;
