import { API_PREFIX, constants, pkceMethods, type OAuthAuthorizeQuery } from "@authsim/sdk/contract";
import { randomBase32 } from "@authsim/sdk/runtime";
import { verifyAccessToken, projectOfAudience } from "../../auth/tokens.ts";
import { knownError } from "../../errors/known-error.ts";
import type { OAuthFlowRecord } from "../../store/strong-auth-records.ts";
import type { MockOAuthServerSettings, OpContext } from "../context.ts";
import { assertAllowedOAuthRedirect, oauthClientProject } from "./oauth-client.ts";
import { requireEnabledProvider } from "./oauth-config.ts";
import { s256Challenge } from "./oauth-token.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * GET /auth/oauth/authorize/{provider} (protocol.md §7.5 step 1): checks, in the real service's order, the client and
 * its key, the provider, the scope, a link's token, the after-callback URL, an extra scope on shared keys, the PKCE method
 * and the optional access token, then records the flow under a fresh inner state and sends the browser to the
 * emulator's mock identity provider: its page, or, for a shared-keys provider while a mock OAuth server is attached
 * (emulator/mock-oauth/server.ts), that server's authorization endpoint. Bot-challenge fields are accepted and not judged
 * (contract botChallengeFields).
 */

/** spec §9: the outer OAuth state lives 3600 s; a callback after that is OUTER_OAUTH_TIMEOUT (spec §8). */
export const OUTER_OAUTH_FLOW_MILLIS = constants.oauthOuterStateCookieMaxAgeSeconds * 1000;

/** Where the mock identity provider's page lives (emulator/control/oauth-idp-page.ts): outside /api/v1, like every emulator page. */
export const mockIdpPath = (providerId: string) => `/__emulator/oauth/authorize/${encodeURIComponent(providerId)}`;

export interface AuthorizeResult {
  flow: OAuthFlowRecord;
  /** The identity provider's page for this flow. */
  location: string;
}

async function tokenUser(ctx: OpContext, projectId: string, token: string): Promise<string | null> {
  const verified = await verifyAccessToken(ctx.tables, token, ctx.now);
  if (!verified.ok && verified.reason === "unparsable") throw knownError("UNPARSABLE_ACCESS_TOKEN");
  if (!verified.ok) throw knownError("ACCESS_TOKEN_EXPIRED", { expired_at_millis: verified.expiredAtMillis });
  // Upstream answers a plain 403 for a token of another project.
  if (projectOfAudience(verified.claims.aud) !== projectId) throw refusal("accessTokenValidProject");
  return ctx.tables.users.has(verified.claims.sub) ? verified.claims.sub : null;
}

/**
 * The real service stores any method and its OAuth library refuses one it cannot verify only when the browser comes
 * back (an unhandled error there); the emulator refuses it up front with that library's words, as a plain 400.
 */
function assertPkceMethod(method: string): void {
  if (!(pkceMethods as readonly string[]).includes(method))
    throw refusal("invalidRequestTransformAlgorithmSupported", method);
}

export async function authorize(ctx: OpContext, providerId: string, q: OAuthAuthorizeQuery): Promise<AuthorizeResult> {
  const project = oauthClientProject(ctx, q.client_id, q.client_secret, "INVALID_PUBLISHABLE_CLIENT_KEY");
  const provider = requireEnabledProvider(project, providerId);
  if (q.scope !== constants.oauthScope) throw knownError("INVALID_SCOPE", undefined, { scope: q.scope });
  if (q.type === "link" && !q.token) throw refusal("tokenQueryParameterRequiredLink");
  const errorRedirectUrl = q.error_redirect_uri ?? q.error_redirect_url ?? null;
  // Only the after-callback URL is judged here. The redirect URI is judged when the browser comes back (the callback
  // refuses an untrusted one), and the error URL is used then only if trusted, so neither stops the flow from starting.
  assertAllowedOAuthRedirect(project, q.after_callback_redirect_url);
  // Shared keys cannot grant extra scopes, whether signing in or linking (the real service refuses both).
  if (q.provider_scope && provider.type === "shared")
    throw knownError("OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS");
  assertPkceMethod(q.code_challenge_method);
  // A token names the user to link to, or the anonymous user a sign-in upgrades (protocol.md §7.8).
  const userId = q.token ? await tokenUser(ctx, project.id, q.token) : null;
  if (q.type === "link" && userId === null) throw refusal("userAccessTokenDoesExist");

  const flow: OAuthFlowRecord = {
    innerState: randomBase32(ctx.random, 160),
    projectId: project.id,
    providerConfigId: provider.id,
    publishableClientKey: q.client_secret,
    // The fragment never reaches the server; upstream drops it before comparing.
    redirectUri: q.redirect_uri.split("#")[0]!,
    state: q.state,
    codeChallenge: q.code_challenge,
    codeChallengeMethod: q.code_challenge_method,
    type: q.type,
    userId,
    providerScope: q.provider_scope ?? null,
    errorRedirectUrl,
    afterCallbackRedirectUrl: q.after_callback_redirect_url ?? null,
    createdAtMillis: ctx.now,
    expiresAtMillis: ctx.now + OUTER_OAUTH_FLOW_MILLIS,
    innerCode: null,
    identity: null,
  };
  const mode = q.response_mode ?? q.stack_response_mode ?? q.hexclave_response_mode;
  if (mode === "json") flow.jsonMode = true;
  ctx.tables.oauthFlows.set(flow.innerState, flow);
  const server = provider.type === "shared" ? ctx.settings.mockOAuthServer : undefined;
  const location = server
    ? await mockServerAuthorizeUrl(ctx, server, flow)
    : `${ctx.settings.apiBaseUrl}${mockIdpPath(provider.id)}?${new URLSearchParams({ state: flow.innerState }).toString()}`;
  return { flow, location };
}

/**
 * The mock OAuth server's authorization URL for a flow, as the real service builds it for its mock provider: the
 * provider id as client, OpenID scopes with a refresh token, the callback on the registered API base, an S256 PKCE
 * challenge and the inner state. The callback redeems the code in process, so the verifier is not kept.
 */
async function mockServerAuthorizeUrl(
  ctx: OpContext,
  server: MockOAuthServerSettings,
  flow: OAuthFlowRecord,
): Promise<string> {
  const url = new URL("/auth", server.origin);
  const providerId = flow.providerConfigId;
  url.search = new URLSearchParams({
    client_id: providerId,
    scope: ["openid", "offline_access", ...(flow.providerScope ? [flow.providerScope] : [])].join(" "),
    response_type: "code",
    redirect_uri: `${server.callbackBaseUrl}${API_PREFIX}/auth/oauth/callback/${encodeURIComponent(providerId)}`,
    code_challenge_method: "S256",
    code_challenge: await s256Challenge(randomBase32(ctx.random, 256)),
    state: flow.innerState,
    access_type: "offline",
    prompt: "consent",
  }).toString();
  return url.toString();
}
