import type { CrossDomainAuthorizeBody } from "@authsim/sdk/contract";
import { randomBase32 } from "@authsim/sdk/runtime";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import type { OAuthAuthorizationCodeRecord } from "../../store/strong-auth-records.ts";
import type { OpContext } from "../context.ts";
import { AUTHORIZATION_CODE_MILLIS } from "./oauth-callback.ts";
import { assertAllowedOAuthRedirect, oauthClientProject } from "./oauth-client.ts";
import { isSessionLive } from "../sign-in/sessions.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * POST /auth/oauth/cross-domain/authorize: a signed-in app hands its session to another of the project's trusted
 * domains without a new sign-in. Checks, in the real service's order: a user from the access token, a session behind
 * that token, the current refresh token of exactly that session and still live, the client key, then both redirect
 * URLs. The answer is the redirect URI with a one-time code (and the caller's state); the other domain exchanges it at
 * /auth/oauth/token with its S256 verifier and gets the same session (domain/ops/oauth/oauth-token.ts).
 */
export function crossDomainAuthorize(
  ctx: OpContext,
  auth: Auth,
  credentials: { refreshToken: string | null; publishableClientKey: string | undefined },
  body: CrossDomainAuthorizeBody,
): { redirect_url: string } {
  const user = auth.user;
  if (!user) throw knownError("USER_AUTHENTICATION_REQUIRED");
  if (!auth.sessionId) throw refusal("crossDomainNeedsSession");
  if (!credentials.refreshToken) throw refusal("crossDomainNeedsRefreshToken");
  const session = ctx.tables.sessions.lookup("refreshToken", credentials.refreshToken);
  // Proof of the session: the refresh token of the very session the access token was issued for.
  if (
    !session ||
    session.id !== auth.sessionId ||
    session.userId !== user.id ||
    session.projectId !== auth.project.id
  ) {
    throw refusal("crossDomainTokenMismatch");
  }
  if (!isSessionLive(session, ctx.now)) throw refusal("crossDomainTokenInvalid");
  const project = oauthClientProject(
    ctx,
    auth.project.id,
    credentials.publishableClientKey,
    "INVALID_PUBLISHABLE_CLIENT_KEY",
  );
  assertAllowedOAuthRedirect(project, body.redirect_uri);
  assertAllowedOAuthRedirect(project, body.after_callback_redirect_url);

  const code: OAuthAuthorizationCodeRecord = {
    code: randomBase32(ctx.random, 224),
    projectId: project.id,
    userId: user.id,
    redirectUri: body.redirect_uri,
    codeChallenge: body.code_challenge,
    codeChallengeMethod: body.code_challenge_method,
    isNewUser: false,
    afterCallbackRedirectUrl: body.after_callback_redirect_url ?? null,
    expiresAtMillis: ctx.now + AUTHORIZATION_CODE_MILLIS,
    sessionId: session.id,
  };
  ctx.tables.oauthAuthorizationCodes.set(code.code, code);
  const target = new URL(body.redirect_uri);
  target.searchParams.set("code", code.code);
  target.searchParams.set("state", body.state);
  return { redirect_url: target.toString() };
}
