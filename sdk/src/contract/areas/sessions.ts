import { z } from "zod";
import { botChallengeFields, listEnvelope, millis, restrictedReason, userIdOrMe, uuidV4 } from "./common.ts";
import { defineOperations, json, success } from "../define-operations.ts";

/** Password and anonymous sign-in, sessions and tokens (protocol.md §4, §6.2, §7.1, §7.8). */

export const passwordSignUpBody = z.strictObject({
  email: z.string().max(254).email(),
  password: z.string(),
  verification_callback_url: z.string().url().optional(),
  ...botChallengeFields,
});
export const passwordSignInBody = z.strictObject({
  // An empty address is a SCHEMA_ERROR ("must not be empty"), as upstream checks it before looking anyone up.
  email: z.string().min(1).max(254),
  password: z.string(),
});
/** Sign-up, sign-in and anonymous sign-up answer the same token pair. */
export const signInResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  user_id: uuidV4,
});
/** Code-based sign-ins (OTP, MFA, passkey) also say whether the user was just created. */
export const signInWithNewUserResponse = signInResponse.extend({ is_new_user: z.boolean() });
export type SignInResponse = z.infer<typeof signInResponse>;

/** POST /auth/sessions (server): spec §7, defaults of §9. */
export const createSessionBody = z.strictObject({
  user_id: uuidV4,
  expires_in_millis: z
    .number()
    .int()
    .positive()
    .max(367 * 24 * 60 * 60 * 1000)
    .optional(),
  is_impersonation: z.boolean().optional(),
});
export const createSessionResponse = z.object({ refresh_token: z.string(), access_token: z.string() });

/** POST /auth/oauth/token, refresh grant (protocol.md §4.4): form fields. */
export const refreshGrantForm = z.object({
  grant_type: z.literal("refresh_token"),
  client_id: z.string(),
  client_secret: z.string().optional(),
  refresh_token: z.string(),
  scope: z.string().optional(),
});
export const tokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.literal("Bearer"),
  expires_in: z.number(),
  scope: z.string(),
  refresh_token: z.string().optional(),
  // The code exchange answers each of these twice, snake_case and camelCase, as upstream does (protocol.md §4.4).
  is_new_user: z.boolean().optional(),
  newUser: z.boolean().optional(),
  after_callback_redirect_url: z.string().nullable().optional(),
  afterCallbackRedirectUrl: z.string().nullable().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;
/** What the token endpoint answers instead when it refuses a grant (RFC 6749 §5.2), not a known error. */
export const oauthTokenErrorResponse = z.object({ error: z.string(), error_description: z.string() });
/** POST /auth/sessions/current/refresh: a new access token for the refresh token in the header. */
export const refreshCurrentSessionResponse = z.object({ access_token: z.string() });

/**
 * Access-token claims (protocol.md §4.1). The published SDK decodes every token and rejects one missing any of these,
 * so the fake provider builds its tokens from this schema and our SDK validates with it too.
 */
export const accessTokenClaims = z.object({
  sub: uuidV4,
  iat: z.number(),
  exp: z.number().optional(),
  iss: z.string(),
  aud: z.string(),
  project_id: z.string(),
  branch_id: z.string(),
  refresh_token_id: z.string(),
  role: z.literal("authenticated"),
  name: z.string().nullable(),
  email: z.string().nullable(),
  email_verified: z.boolean(),
  selected_team_id: z.string().nullable(),
  signed_up_at: z.number().int(),
  is_anonymous: z.boolean(),
  is_restricted: z.boolean(),
  restricted_reason: restrictedReason.nullable(),
  requires_totp_mfa: z.boolean(),
});
export type AccessTokenClaims = z.infer<typeof accessTokenClaims>;

/**
 * Where an end user was when a session was used (protocol.md §2.1: x-forwarded-for and x-vercel-ip-* headers).
 * camelCase on the wire, as upstream's geo schema has it.
 */
export const geoInfo = z.object({
  ip: z.string(),
  countryCode: z.string().nullable().optional(),
  regionCode: z.string().nullable().optional(),
  cityName: z.string().nullable().optional(),
  latitude: z.number().nullable().optional(),
  longitude: z.number().nullable().optional(),
  tzIdentifier: z.string().nullable().optional(),
});
export type GeoInfo = z.infer<typeof geoInfo>;

/** A session row as listed (protocol.md §5.7). */
export const sessionView = z.object({
  id: uuidV4,
  user_id: uuidV4,
  created_at: millis,
  is_impersonation: z.boolean(),
  last_used_at: millis.optional(),
  is_current_session: z.boolean().optional(),
  last_used_at_end_user_ip_info: geoInfo.optional(),
});
export type SessionJson = z.infer<typeof sessionView>;

/** GET /auth/sessions?user_id= (required; a client names itself). */
export const sessionListQuery = z.strictObject({ user_id: userIdOrMe });
export const sessionList = listEnvelope(sessionView);
/** DELETE /auth/sessions/{id}: the published client adds ?user_id=me. */
export const sessionDeleteQuery = z.strictObject({ user_id: userIdOrMe.optional() });
export const sessionParams = z.strictObject({ session_id: uuidV4 });

/**
 * POST /auth/oauth/token (protocol.md §4.4): a form with client_secret_post authentication. Keys beyond these are
 * accepted (RFC 6749 lets a client send extensions).
 */
export const oauthTokenBody = z.looseObject({
  grant_type: z.string(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  // The authorization-code grant (fake provider: ops/oauth/oauth-token.ts).
  code: z.string().optional(),
  redirect_uri: z.string().optional(),
  code_verifier: z.string().optional(),
});

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const sessionsOperations = defineOperations("sessions", {
  passwordSignUp: {
    method: "POST",
    path: "/auth/password/sign-up",
    access: "client",
    body: passwordSignUpBody,
    errors: [
      "EMAIL_ALREADY_VERIFIED",
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
      "PASSWORD_TOO_LONG",
      "PASSWORD_TOO_SHORT",
      "REDIRECT_URL_NOT_WHITELISTED",
      "SIGN_UP_NOT_ENABLED",
      "SIGN_UP_REJECTED",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "USER_EMAIL_ALREADY_EXISTS",
    ],
    responses: [json(signInResponse)],
  },
  passwordSignIn: {
    method: "POST",
    path: "/auth/password/sign-in",
    access: "client",
    body: passwordSignInBody,
    errors: [
      "EMAIL_PASSWORD_MISMATCH",
      "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "USER_EMAIL_ALREADY_EXISTS",
    ],
    responses: [json(signInResponse)],
  },
  anonymousSignUp: {
    method: "POST",
    path: "/auth/anonymous/sign-up",
    access: "client",
    errors: ["ANONYMOUS_ACCOUNTS_NOT_ENABLED", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_EMAIL_ALREADY_EXISTS"],
    responses: [json(signInResponse)],
  },
  oauthToken: {
    method: "POST",
    path: "/auth/oauth/token",
    access: "none",
    body: oauthTokenBody,
    form: true,
    errors: [
      "INVALID_AUTHORIZATION_CODE",
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
      "INVALID_SCOPE",
      "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    ],
    responses: [json(tokenResponse), json(oauthTokenErrorResponse, 400, "An OAuth error (RFC 6749 §5.2)")],
  },
  createSession: {
    method: "POST",
    path: "/auth/sessions",
    access: "server",
    body: createSessionBody,
    errors: ["USER_ID_DOES_NOT_EXIST"],
    responses: [json(createSessionResponse)],
  },
  listSessions: {
    method: "GET",
    path: "/auth/sessions",
    access: "client",
    query: sessionListQuery,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"],
    responses: [json(sessionList)],
  },
  deleteCurrentSession: {
    method: "DELETE",
    path: "/auth/sessions/current",
    access: "client",
    errors: ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", "ACCESS_TOKEN_EXPIRED"],
    responses: [success],
  },
  refreshCurrentSession: {
    method: "POST",
    path: "/auth/sessions/current/refresh",
    access: "client",
    errors: ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"],
    responses: [json(refreshCurrentSessionResponse)],
  },
  deleteSession: {
    method: "DELETE",
    path: "/auth/sessions/:session_id",
    access: "client",
    params: sessionParams,
    query: sessionDeleteQuery,
    errors: ["CANNOT_DELETE_CURRENT_SESSION"],
    responses: [success],
  },
});
