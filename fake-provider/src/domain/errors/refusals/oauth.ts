import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of OAuth: accounts, authorize, callback, cross-domain, token (domain/ops/oauth/). */
export const oauthRefusals = {
  // domain/ops/oauth/oauth-account-owners.ts
  clientOwnOAuthProvidersOnly: {
    status: 403,
    text: (verb: Arg) => `Client can only ${verb} OAuth providers for their own user.`,
    operations: ["getOAuthProvider", "updateOAuthProvider", "deleteOAuthProvider"],
  },
  clientListOwnOAuthProvidersOnly: {
    status: 403,
    text: (OAUTH_PROVIDERS: Arg) => `Client can only list ${OAUTH_PROVIDERS} for their own user.`,
    operations: ["listOAuthProviders"],
  },
  // domain/ops/oauth/oauth-accounts.ts
  oauthProviderUserFound: {
    status: 404,
    text: (accountId: Arg, id: Arg) => `OAuth provider ${accountId} for user ${id} not found`,
    operations: ["getOAuthProvider", "updateOAuthProvider", "deleteOAuthProvider"],
  },
  sameProviderTypeSignEnabled: {
    status: 400,
    text: "The same provider type with sign-in enabled already exists for this user.",
    operations: ["createOAuthProvider", "updateOAuthProvider"],
  },
  sameProviderTypeSameAccount: {
    status: 400,
    text: "The same provider type with the same account ID already exists for this user.",
    operations: ["createOAuthProvider", "updateOAuthProvider"],
  },
  oauthProviderFoundConfigured: {
    status: 404,
    text: (providerConfigId: Arg) => `OAuth provider ${providerConfigId} not found or not configured`,
    operations: ["createOAuthProvider"],
  },
  // domain/ops/oauth/oauth-authorize.ts
  accessTokenValidProject: { status: 403, text: "The access token is not valid for this project" },
  invalidRequestTransformAlgorithmSupported: {
    status: 400,
    text: (method: Arg) => `Invalid request: transform algorithm '${method}' not supported`,
    operations: ["oauthAuthorize"],
  },
  tokenQueryParameterRequiredLink: { status: 400, text: "?token= query parameter is required for link type" },
  userAccessTokenDoesExist: { status: 400, text: "The user of the access token does not exist any more." },
  // domain/ops/oauth/oauth-callback.ts
  userAccountWasLinkedNo: { status: 400, text: "The user this account was to be linked to no longer exists." },
  innerOauthCallbackFailedDue: {
    status: 400,
    text: "Inner OAuth callback failed due to invalid grant. Please try again.",
    operations: ["oauthCallbackGet", "oauthCallbackPost"],
  },
  invalidOauthStatePleaseTry: {
    status: 400,
    text: "Invalid OAuth state. Please try signing in again.",
    operations: ["oauthCallbackGet", "oauthCallbackPost"],
  },
  innerOauthCookieFoundLikely: {
    status: 400,
    text: "Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again",
  },
  // domain/ops/oauth/oauth-cross-domain.ts
  crossDomainNeedsSession: {
    status: 400,
    text: "Cross-domain auth handoff requires a refresh-token-bound session. Please sign in again.",
    operations: ["crossDomainAuthorize"],
  },
  crossDomainNeedsRefreshToken: {
    status: 400,
    text: "Cross-domain auth handoff requires passing the current refresh token.",
    operations: ["crossDomainAuthorize"],
  },
  crossDomainTokenMismatch: {
    status: 401,
    text: "Cross-domain auth handoff refresh token does not match the authenticated session.",
    operations: ["crossDomainAuthorize"],
  },
  crossDomainTokenInvalid: {
    status: 401,
    text: "Cross-domain auth handoff refresh token is not valid.",
    operations: ["crossDomainAuthorize"],
  },
  // domain/ops/oauth/oauth-idp.ts
  noOauthSignWaitingPage: { status: 404, text: "No OAuth sign-in is waiting for this page. Start again from the app." },
  accountIdEmpty: { status: 400, text: "The account id must not be empty." },
  // domain/ops/oauth/oauth-token.ts
  invalidRedirectUriRedirectUri: {
    status: 400,
    text: "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.",
  },
} as const satisfies Readonly<Record<string, Refusal>>;
