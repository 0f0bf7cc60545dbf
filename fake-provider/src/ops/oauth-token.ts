import { base64url } from "jose";
import { constants, type AuthorizationCodeGrantForm } from "@authsim/sdk/contract";
import { knownError, StatusError } from "../http/known-error.ts";
import type { ProjectRecord } from "../store/records.ts";
import type { OpContext } from "./context.ts";
import { mfaRequiredError, requiresMfa } from "./mfa.ts";
import { openSession } from "./sessions.ts";

/**
 * The authorization-code grant of POST /auth/oauth/token (protocol.md §4.4): the code from the callback, the same
 * redirect_uri, and the PKCE verifier whose S256 digest is the challenge of the authorize request (RFC 7636 §4.6).
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

/** RFC 7636 §4.1: 43–128 characters of [A-Z a-z 0-9 - . _ ~]. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url.encode(new Uint8Array(digest));
}

export interface CodeGrantTokens {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  refresh_token: string;
  is_new_user: boolean;
  newUser: boolean;
  after_callback_redirect_url: string | null;
  afterCallbackRedirectUrl: string | null;
}

export async function exchangeAuthorizationCode(ctx: OpContext, project: ProjectRecord, form: AuthorizationCodeGrantForm): Promise<CodeGrantTokens> {
  if (!form.code) throw new OAuthGrantError("invalid_request", "Missing parameter: `code`");
  const record = ctx.tables.oauthAuthorizationCodes.get(form.code);
  if (!record || record.projectId !== project.id || record.expiresAtMillis <= ctx.now) throw knownError("INVALID_AUTHORIZATION_CODE");
  const user = ctx.tables.users.get(record.userId);
  if (!user) throw knownError("INVALID_AUTHORIZATION_CODE");
  if (form.redirect_uri !== record.redirectUri) {
    throw new StatusError(400, "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.");
  }
  if (!form.code_verifier) throw new OAuthGrantError("invalid_grant", "Missing parameter: `code_verifier`");
  if (!VERIFIER.test(form.code_verifier)) throw new OAuthGrantError("invalid_request", "Invalid parameter: `code_verifier`");
  if ((await s256Challenge(form.code_verifier)) !== record.codeChallenge) throw new OAuthGrantError("invalid_grant", "Invalid grant: code verifier is invalid");
  // The code is spent from here on, even if MFA stops this exchange (as upstream revokes it before saving the token).
  ctx.keepOnFailure((tables) => tables.oauthAuthorizationCodes.delete(record.code));
  if (requiresMfa(user)) throw mfaRequiredError(ctx, user, record.isNewUser);
  ctx.tables.users.set(user.id, { ...user, lastActiveAtMillis: ctx.now });
  const { session, accessToken } = await openSession(ctx, user);
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
