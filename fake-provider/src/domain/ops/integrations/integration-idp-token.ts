import type { IntegrationFamily } from "@authsim/sdk/contract";
import { randomBase32 } from "@authsim/sdk/runtime";
import type { IdpResult } from "../../store/integration-records.ts";
import type { OpContext } from "../context.ts";
import { s256Challenge } from "../oauth/oauth-token.ts";
import { clientOfCredentials } from "./integration-clients.ts";
import {
  ACCESS_TOKEN_TTL_SECONDS,
  find,
  idpBase,
  key,
  save,
  type IdpAnswer,
  type IdpRequest,
} from "./integration-idp-records.ts";

/** The identity provider's endpoints for the integration's server: token, userinfo (`me`) and discovery. */

/** POST token (a form; the client's Basic credentials): the code, once, for this client and redirect URI, with PKCE. */
export async function token(ctx: OpContext, family: IntegrationFamily, req: IdpRequest): Promise<IdpAnswer> {
  const client = clientOfCredentials(req.authorization);
  if (!client)
    return {
      kind: "json",
      status: 401,
      body: { error: "invalid_client", error_description: "client authentication failed" },
    };
  const form = req.form;
  if (form.grant_type !== "authorization_code")
    return {
      kind: "json",
      status: 400,
      body: { error: "unsupported_grant_type", error_description: "unsupported grant_type requested" },
    };
  const invalidGrant = {
    kind: "json",
    status: 400,
    body: { error: "invalid_grant", error_description: "grant request is invalid" },
  } as const;
  const code = find(ctx, family, "code", form.code ?? "");
  if (!code || code.clientId !== client.clientId || code.redirectUri !== form.redirect_uri) return invalidGrant;
  if (!form.code_verifier || (await s256Challenge(form.code_verifier)) !== code.codeChallenge)
    return { ...invalidGrant, body: { error: "invalid_grant", error_description: "PKCE verification failed" } };
  ctx.tables.integrationIdp.delete(key("code", code.id));
  const accessToken = randomBase32(ctx.random, 256);
  save(ctx, {
    kind: "access-token",
    id: accessToken,
    family,
    accountId: code.accountId,
    expiresAtMillis: ctx.now + ACCESS_TOKEN_TTL_SECONDS * 1000,
  });
  return {
    kind: "json",
    status: 200,
    body: { access_token: accessToken, expires_in: ACCESS_TOKEN_TTL_SECONDS, scope: "openid", token_type: "Bearer" },
    headers: { "cache-control": "no-store" },
  };
}

/** GET me (Bearer): the account the token was issued for. */
export function userInfo(ctx: OpContext, family: IntegrationFamily, req: IdpRequest): IdpAnswer {
  const bearer = /^Bearer (.+)$/.exec(req.authorization ?? "")?.[1];
  const record = bearer === undefined ? undefined : find(ctx, family, "access-token", bearer);
  if (!record)
    return { kind: "json", status: 401, body: { error: "invalid_token", error_description: "invalid token provided" } };
  return { kind: "json", status: 200, body: { sub: record.accountId } };
}

export function discovery(ctx: OpContext, family: IntegrationFamily): IdpAnswer {
  const base = idpBase(ctx, family);
  return {
    kind: "json",
    status: 200,
    body: {
      issuer: base,
      authorization_endpoint: `${base}/auth`,
      token_endpoint: `${base}/token`,
      userinfo_endpoint: `${base}/me`,
      jwks_uri: `${base}/.well-known/jwks.json`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["openid"],
      subject_types_supported: ["public"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    },
  };
}

/**
 * POST /integrations/<family>/oauth/token: the provider's token exchange with the same form and credentials, then the
 * result its account holds. A refusal of the provider is passed on with its status, as text (upstream's).
 */
export async function exchangeIntegrationCode(
  ctx: OpContext,
  family: IntegrationFamily,
  form: Record<string, string>,
  authorization: string,
): Promise<{ ok: true; result: IdpResult } | { ok: false; status: number; text: string }> {
  const answer = await token(ctx, family, {
    method: "POST",
    route: "token",
    query: {},
    form,
    cookies: {},
    authorization,
  });
  if (answer.kind !== "json" || answer.status !== 200) {
    const body = answer.kind === "json" ? answer.body : {};
    return { ok: false, status: answer.kind === "json" ? answer.status : 500, text: JSON.stringify(body) };
  }
  const tokenRecord = find(ctx, family, "access-token", String(answer.body.access_token));
  const account = tokenRecord && find(ctx, family, "account", tokenRecord.accountId);
  if (!account) return { ok: false, status: 400, text: JSON.stringify({ error: "invalid_grant" }) };
  return { ok: true, result: account.result };
}
