import { base64url } from "jose";
import { constants, type AuthorizationCodeGrantForm, type RequestBody } from "@authsim/sdk/contract";
import { knownError } from "../../errors/known-error.ts";
import type { ProjectRecord } from "../../store/records.ts";
import type { OAuthAuthorizationCodeRecord } from "../../store/strong-auth-records.ts";
import type { OpContext } from "../context.ts";
import { mfaRequiredError, requiresMfa } from "../sign-in/mfa.ts";
import { oauthClientProject } from "./oauth-client.ts";
import { accessTokenFor, isSessionLive, openSession } from "../sign-in/sessions.ts";
import type { UnsignedAccessToken } from "../../auth/tokens.ts";
import { setUserFields } from "../users/user-fields.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * The authorization-code grant of POST /auth/oauth/token (protocol.md §4.4): the code from the callback, the same
 * redirect_uri, and the PKCE verifier that matches the challenge of the authorize request (RFC 7636 §4.6: S256 or plain).
 */

/** A standard OAuth error answer (`{error, error_description}`), as node-oauth2-server words them. */
export class OAuthGrantError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = "OAuthGrantError";
  }
}

/**
 * The token endpoint's client (protocol.md §4.4, client_secret_post): the project named by client_id with its secret
 * checked, then the scope, which must be the one scope the service grants when it is given. Both grants start here.
 */
export function tokenEndpointClient(
  ctx: OpContext,
  body: Pick<RequestBody<"oauthToken">, "client_id" | "client_secret" | "scope">,
): ProjectRecord {
  const project = oauthClientProject(
    ctx,
    body.client_id ?? "",
    body.client_secret,
    "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
  );
  if (body.scope !== undefined && body.scope !== constants.oauthScope)
    throw knownError("INVALID_SCOPE", undefined, { scope: body.scope });
  return project;
}

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url.encode(new Uint8Array(digest));
}

/**
 * RFC 7636 §4.6 for the method of the authorize request: S256 compares the digest, plain the verifier itself. With no
 * challenge, a verifier is refused (the library's rule); with one, a verifier is required.
 */
async function verifierMatches(verifier: string | undefined, record: OAuthAuthorizationCodeRecord): Promise<boolean> {
  if (!record.codeChallenge) return !verifier;
  if (!verifier) return false;
  const method = record.codeChallengeMethod ?? "S256";
  return (method === "plain" ? verifier : await s256Challenge(verifier)) === record.codeChallenge;
}

export interface CodeGrantTokens {
  access_token: UnsignedAccessToken;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  refresh_token: string;
  is_new_user: boolean;
  newUser: boolean;
  after_callback_redirect_url: string | null;
  afterCallbackRedirectUrl: string | null;
}

export async function exchangeAuthorizationCode(
  ctx: OpContext,
  project: ProjectRecord,
  form: AuthorizationCodeGrantForm,
): Promise<CodeGrantTokens> {
  if (!form.code) throw new OAuthGrantError("invalid_request", "Missing parameter: `code`");
  const record = ctx.tables.oauthAuthorizationCodes.get(form.code);
  if (!record || record.projectId !== project.id || record.expiresAtMillis <= ctx.now)
    throw knownError("INVALID_AUTHORIZATION_CODE");
  const user = ctx.tables.users.get(record.userId);
  if (!user) throw knownError("INVALID_AUTHORIZATION_CODE");
  if (form.redirect_uri !== record.redirectUri) {
    throw refusal("invalidRedirectUriRedirectUri");
  }
  // The real service's OAuth library calls a missing or wrong verifier an invalid grant, which its token route answers
  // as INVALID_AUTHORIZATION_CODE; the code stays usable (it is spent only by a successful exchange).
  if (!(await verifierMatches(form.code_verifier, record))) throw knownError("INVALID_AUTHORIZATION_CODE");
  // The code is spent from here on, even if MFA stops this exchange (as upstream revokes it before saving the token).
  ctx.keepOnFailure((tables) => tables.oauthAuthorizationCodes.delete(record.code));
  // A cross-domain handoff (domain/ops/oauth/oauth-cross-domain.ts) passes on a session that already exists, MFA and all; it must
  // still be live.
  const handedOver = record.sessionId === undefined ? null : ctx.tables.sessions.get(record.sessionId);
  if (handedOver !== null && (!handedOver || handedOver.userId !== user.id || !isSessionLive(handedOver, ctx.now)))
    throw knownError("INVALID_AUTHORIZATION_CODE");
  if (!handedOver && requiresMfa(user)) throw mfaRequiredError(ctx, user, record.isNewUser);
  setUserFields(ctx, user, { lastActiveAtMillis: ctx.now });
  const { session, accessToken } = handedOver
    ? { session: handedOver, accessToken: await accessTokenFor(ctx, user, handedOver.id) }
    : await openSession(ctx, user);
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ctx.settings.accessTokenLifetimeSeconds,
    scope: constants.oauthScope,
    refresh_token: session.refreshToken,
    // Both spellings, as upstream's saveToken answers (the camelCase ones are deprecated).
    is_new_user: record.isNewUser,
    newUser: record.isNewUser,
    after_callback_redirect_url: record.afterCallbackRedirectUrl,
    afterCallbackRedirectUrl: record.afterCallbackRedirectUrl,
  };
}
