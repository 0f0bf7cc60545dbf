import { z } from "zod";
import { botChallengeFields, urlField } from "./common.ts";
import { defineOperations, json, redirect } from "../define-operations.ts";
import { signInWithNewUserResponse } from "./sessions.ts";
import { connectedAccountTokenBody, connectedAccountTokenResponse } from "./oauth-providers.ts";

/**
 * OAuth sign-in and linking through the provider (protocol.md §4.4, §7.5; spec §7 "Auth", §9 "OAuth"): the authorize
 * query the SDK builds, the JSON-mode answer, the callback's query and the authorization-code grant's form.
 */

/** Spec §9: PKCE method S256, response type code, scope legacy. */
export const OAUTH_PKCE_METHOD = "S256";

/** How the authorize endpoint answers: a 307 to the identity provider (default), or 200 `{location}` (protocol.md §7.5). */
export const oauthResponseMode = z.enum(["redirect", "json"]);

/** The PKCE methods the token endpoint can verify (RFC 7636 §4.2); the SDK always uses S256. */
export const pkceMethods = ["S256", "plain"] as const;

/**
 * GET /auth/oauth/authorize/{provider_id}. Unknown keys are tolerated (protocol.md §1: the one exception to strict
 * queries). The published SDK asks for JSON with `stack_response_mode` and `hexclave_response_mode`; upstream's own
 * name is `response_mode`.
 * The OAuth fields are only required here, as the real service's schema has them: the client, its key, the provider
 * and the redirect URLs are judged first (INVALID_OAUTH_CLIENT_ID_OR_SECRET, REDIRECT_URL_NOT_WHITELISTED …), and the
 * PKCE pair when the code is exchanged (S256 or plain; its own suite uses plain).
 */
export const oauthAuthorizeQuery = z.looseObject({
  client_id: z.string().min(1),
  client_secret: z.string(),
  redirect_uri: urlField,
  scope: z.string(),
  state: z.string().min(1),
  grant_type: z.literal("authorization_code"),
  code_challenge: z.string(),
  code_challenge_method: z.string(),
  response_type: z.string(),
  type: z.enum(["authenticate", "link"]).default("authenticate"),
  token: z.string().optional(),
  provider_scope: z.string().optional(),
  error_redirect_url: urlField.optional(),
  error_redirect_uri: urlField.optional(),
  after_callback_redirect_url: urlField.optional(),
  response_mode: oauthResponseMode.optional(),
  stack_response_mode: oauthResponseMode.optional(),
  hexclave_response_mode: oauthResponseMode.optional(),
  ...botChallengeFields,
});
export type OAuthAuthorizeQuery = z.infer<typeof oauthAuthorizeQuery>;

export const oauthAuthorizeJsonResponse = z.object({ location: z.string().url() });

/** GET|POST /auth/oauth/callback/{provider_id}: what the identity provider sends back (RFC 6749 §4.1.2). */
export const oauthCallbackParams = z.looseObject({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/** The cookie that binds the callback to the browser that started the flow (protocol.md §7.5). */
export const oauthInnerStateCookie = (innerState: string) => `stack-oauth-inner-${innerState}`;

/** POST /auth/oauth/token, authorization-code grant (protocol.md §4.4): form fields, PKCE S256. */
export const authorizationCodeGrantForm = z.object({
  grant_type: z.literal("authorization_code"),
  client_id: z.string(),
  client_secret: z.string().optional(),
  code: z.string().optional(),
  redirect_uri: z.string().optional(),
  code_verifier: z.string().optional(),
  scope: z.string().optional(),
});
export type AuthorizationCodeGrantForm = z.infer<typeof authorizationCodeGrantForm>;

/**
 * The query a failed callback sends the browser to `error_redirect_url` with (protocol.md §7.5): the OAuth pair plus
 * the known error's code, message and details (JSON).
 */
export const oauthErrorRedirectParams = ["error", "error_description", "errorCode", "message", "details"] as const;

/**
 * POST /auth/oauth/cross-domain/authorize (client, signed in): hands the current session to another of the project's
 * trusted domains. The caller proves the session with its refresh token; the answer is the other domain's redirect URI
 * with a one-time authorization code, which that domain exchanges at /auth/oauth/token with its PKCE verifier (S256
 * only) for the same session's tokens.
 */
export const crossDomainAuthorizeBody = z.object({
  redirect_uri: urlField,
  state: z.string().min(1).max(512),
  code_challenge: z
    .string()
    .regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must match the following: "/^[A-Za-z0-9._~-]{43,128}$/"'),
  code_challenge_method: z.enum(["S256"]).default("S256"),
  after_callback_redirect_url: urlField.optional(),
});
export type CrossDomainAuthorizeBody = z.infer<typeof crossDomainAuthorizeBody>;
export const crossDomainAuthorizeResponse = z.object({ redirect_url: z.string().url() });

/**
 * POST /auth/oauth/callback/apple/native (client): a native app's Sign in with Apple identity token, for the project's
 * `apple` provider and one of its app Bundle IDs.
 */
export const appleNativeSignInBody = z.object({ id_token: z.string() });

/** The provider of /auth/oauth/authorize/:provider_id and /auth/oauth/callback/:provider_id. */
export const oauthProviderIdParams = z.strictObject({ provider_id: z.string() });
/** The GET callback reads the provider's answer from its query; a body it may carry is not looked at. */
export const oauthCallbackGetBody = z.unknown();
/** The form_post callback reads the provider's answer from its form; its query may hold anything. */
export const oauthCallbackPostQuery = z.looseObject({});
export const oauthCallbackPostBody = z.union([z.undefined(), oauthCallbackParams]);

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const oauthOperations = defineOperations("oauth", {
  oauthAuthorize: {
    method: "GET",
    path: "/auth/oauth/authorize/:provider_id",
    access: "none",
    params: oauthProviderIdParams,
    query: oauthAuthorizeQuery,
    errors: [
      "ACCESS_TOKEN_EXPIRED",
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
      "INVALID_PUBLISHABLE_CLIENT_KEY",
      "INVALID_SCOPE",
      "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
      "REDIRECT_URL_NOT_WHITELISTED",
      "UNPARSABLE_ACCESS_TOKEN",
    ],
    responses: [
      redirect(
        307,
        "To the identity provider (the emulator's mock provider page, or its mock OAuth server); sets the inner-state cookie.",
      ),
      json(oauthAuthorizeJsonResponse, 200, "With stack_response_mode=json: where to send the browser"),
    ],
  },
  oauthCallbackGet: {
    method: "GET",
    path: "/auth/oauth/callback/:provider_id",
    access: "none",
    params: oauthProviderIdParams,
    query: oauthCallbackParams,
    body: oauthCallbackGetBody,
    errors: [
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER",
      "OAUTH_PROVIDER_ACCESS_DENIED",
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
      "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE",
      "OUTER_OAUTH_TIMEOUT",
      "REDIRECT_URL_NOT_WHITELISTED",
      "SIGN_UP_NOT_ENABLED",
      "SIGN_UP_REJECTED",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION",
      "USER_EMAIL_ALREADY_EXISTS",
    ],
    responses: [
      redirect(303, "To the app's redirect_uri with code and state (body: {})."),
      redirect(
        307,
        "A refusal, to the app's error URL with the known error in the query (errorCode, message, details).",
      ),
    ],
  },
  oauthCallbackPost: {
    method: "POST",
    path: "/auth/oauth/callback/:provider_id",
    access: "none",
    params: oauthProviderIdParams,
    query: oauthCallbackPostQuery,
    body: oauthCallbackPostBody,
    form: true,
    errors: [
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER",
      "OAUTH_PROVIDER_ACCESS_DENIED",
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
      "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE",
      "OUTER_OAUTH_TIMEOUT",
      "REDIRECT_URL_NOT_WHITELISTED",
      "SIGN_UP_NOT_ENABLED",
      "SIGN_UP_REJECTED",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION",
      "USER_EMAIL_ALREADY_EXISTS",
    ],
    responses: [
      redirect(303, "To the app's redirect_uri with code and state (body: {})."),
      redirect(307, "A refusal, to the app's error URL with the known error in the query."),
    ],
  },
  appleNativeSignIn: {
    method: "POST",
    path: "/auth/oauth/callback/apple/native",
    access: "client",
    body: appleNativeSignInBody,
    errors: ["APPLE_BUNDLE_ID_NOT_CONFIGURED", "INVALID_APPLE_CREDENTIALS", "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED"],
    responses: [json(signInWithNewUserResponse)],
  },
  crossDomainAuthorize: {
    method: "POST",
    path: "/auth/oauth/cross-domain/authorize",
    access: "client",
    body: crossDomainAuthorizeBody,
    errors: [
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
      "INVALID_PUBLISHABLE_CLIENT_KEY",
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
      "REDIRECT_URL_NOT_WHITELISTED",
      "USER_AUTHENTICATION_REQUIRED",
    ],
    responses: [json(crossDomainAuthorizeResponse)],
  },
  // Deprecated upstream: it forwards its request to POST /connected-accounts/me/:provider_id/access-token and answers
  // with that route's status and body, so its errors and its 201 are that route's.
  legacyConnectedAccountToken: {
    method: "POST",
    path: "/auth/oauth/connected-accounts/:provider_id/access-token",
    access: "client",
    params: oauthProviderIdParams,
    body: connectedAccountTokenBody,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
      "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
    ],
    responses: [json(connectedAccountTokenResponse, 201, "A provider access token (the forwarded route's 201)")],
  },
});
