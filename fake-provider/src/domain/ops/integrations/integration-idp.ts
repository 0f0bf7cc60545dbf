import { INTERNAL_PROJECT_ID, type IntegrationFamily } from "@authsim/sdk/contract";
import { randomBase32, uuid } from "@authsim/sdk/runtime";
import { base64UrlToText } from "../../auth/base64url.ts";
import { knownError } from "../../errors/known-error.ts";
import { refusal } from "../../errors/refusals.ts";
import type { IdpRecord } from "../../store/integration-records.ts";
import type { OpContext } from "../context.ts";
import { createInternalApiKey } from "../projects/internal-api-keys.ts";
import { dashboardOrigin, findIntegrationClient } from "./integration-clients.ts";
import {
  CODE_TTL_MILLIS,
  find,
  idpBase,
  idpBasePath,
  INTERACTION_TTL_MILLIS,
  key,
  oidcError,
  save,
  type IdpAnswer,
  type IdpCookie,
  type IdpRequest,
} from "./integration-idp-records.ts";
import { discovery, token, userInfo } from "./integration-idp-token.ts";

/**
 * The integrations' OpenID Connect identity provider (upstream: oidc-provider under integrations/<family>/oauth/idp),
 * as state: an integration sends its user to authorize; the provider opens an interaction (two session cookies) and
 * sends the browser to the dashboard's consent page; the dashboard (internal/confirm) makes an admin key for the chosen
 * project and a one-time code; the browser comes back to interaction/<uid>/done with it, which ends the interaction
 * with a new account mapped to that key; the resumed authorize hands the integration an authorization code (PKCE S256);
 * the token endpoint trades it for an access token, and `me` names its account. The integration's own token route
 * reads the key back through that account.
 */

export { exchangeIntegrationCode } from "./integration-idp-token.ts";
export { idpBasePath, type IdpAnswer, type IdpCookie, type IdpRequest } from "./integration-idp-records.ts";

/** Routes the provider's requests (its paths and methods; anything else is its 404). */
export async function idpRequest(ctx: OpContext, family: IntegrationFamily, req: IdpRequest): Promise<IdpAnswer> {
  const parts = req.route.split("/");
  if (req.method === "GET" && req.route === "auth") return authorize(ctx, family, req);
  if (req.method === "GET" && parts.length === 2 && parts[0] === "auth") return resume(ctx, family, parts[1]!, req);
  if (parts.length === 2 && parts[0] === "interaction" && req.method === "GET")
    return interaction(ctx, family, parts[1]!, req);
  if (parts.length === 3 && parts[0] === "interaction" && parts[2] === "done") {
    if (req.method === "GET") return { kind: "continue-page" };
    if (req.method === "POST") return finishInteraction(ctx, family, parts[1]!, req);
  }
  if (req.method === "POST" && req.route === "token") return token(ctx, family, req);
  if ((req.method === "GET" || req.method === "POST") && req.route === "me") return userInfo(ctx, family, req);
  if (req.method === "GET" && req.route === ".well-known/openid-configuration") return discovery(ctx, family);
  // No ID tokens are issued (docs/emulator.md), so there is no key to publish.
  if (req.method === "GET" && req.route === ".well-known/jwks.json")
    return { kind: "json", status: 200, body: { keys: [] } };
  return {
    kind: "json",
    status: 404,
    body: {
      error: "invalid_request",
      error_description: `unrecognized route or not allowed method (${req.method} on ${idpBasePath(family)}/${req.route})`,
    },
  };
}

/** GET auth: the client and its redirect URI first (errors answered here), then the rest (errors sent to the client). */
function authorize(ctx: OpContext, family: IntegrationFamily, req: IdpRequest): IdpAnswer {
  const q = req.query;
  const client = q.client_id === undefined ? undefined : findIntegrationClient(q.client_id);
  if (!client) return oidcError(ctx, family, "invalid_client", "client is invalid", q.state);
  if (q.redirect_uri === undefined || !client.redirectUris.includes(q.redirect_uri))
    return oidcError(
      ctx,
      family,
      "invalid_redirect_uri",
      "redirect_uri did not match any of the client's registered redirect_uris",
      q.state,
    );
  const problem =
    q.response_type !== "code"
      ? ["unsupported_response_type", "unsupported response_type requested"]
      : !q.code_challenge
        ? ["invalid_request", "Authorization Server policy requires PKCE to be used for this request"]
        : q.code_challenge_method !== "S256"
          ? ["invalid_request", "not supported value of code_challenge_method"]
          : !(q.scope ?? "").split(" ").includes("openid")
            ? ["invalid_request", "openid scope must be requested for this request"]
            : null;
  if (problem)
    return toClient(ctx, family, q.redirect_uri, { error: problem[0]!, error_description: problem[1]! }, q.state, []);
  const uid = randomBase32(ctx.random, 105);
  const record: Extract<IdpRecord, { kind: "interaction" }> = {
    kind: "interaction",
    id: uid,
    family,
    clientId: client.clientId,
    redirectUri: q.redirect_uri,
    state: q.state ?? null,
    codeChallenge: q.code_challenge!,
    cookie: randomBase32(ctx.random, 128),
    resumeCookie: randomBase32(ctx.random, 128),
    accountId: null,
    expiresAtMillis: ctx.now + INTERACTION_TTL_MILLIS,
  };
  save(ctx, record);
  return {
    kind: "redirect",
    status: 303,
    location: `${idpBase(ctx, family)}/interaction/${uid}`,
    cookies: [
      ...signedCookie(
        "_interaction",
        record.cookie,
        `${idpBasePath(family)}/interaction/${uid}`,
        record.expiresAtMillis,
      ),
      ...signedCookie(
        "_interaction_resume",
        record.resumeCookie,
        `${idpBasePath(family)}/auth/${uid}`,
        record.expiresAtMillis,
      ),
    ],
  };
}

/** A cookie and its `.sig` companion, as oidc-provider's signed cookies come (the value is checked whole here). */
function signedCookie(name: string, value: string, path: string, expiresAtMillis: number): IdpCookie[] {
  return [
    { name, value, path, expiresAtMillis },
    { name: `${name}.sig`, value: value.slice(0, 27), path, expiresAtMillis },
  ];
}

/** An OAuth answer sent back to the client's redirect URI (RFC 6749 §4.1.2), with the issuer (RFC 9207). */
function toClient(
  ctx: OpContext,
  family: IntegrationFamily,
  redirectUri: string,
  params: Record<string, string>,
  state: string | null | undefined,
  cookies: IdpCookie[],
): IdpAnswer {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (state) url.searchParams.set("state", state);
  url.searchParams.set("iss", idpBase(ctx, family));
  return { kind: "redirect", status: 303, location: url.toString(), cookies };
}

/** The interaction its session cookie names, or oidc-provider's answer when the cookie is missing or stale. */
function sessionInteraction(ctx: OpContext, family: IntegrationFamily, uid: string, cookies: Record<string, string>) {
  const record = find(ctx, family, "interaction", uid);
  if (!cookies._interaction || !record || record.cookie !== cookies._interaction) return null;
  return record;
}
const sessionNotFound = (ctx: OpContext, family: IntegrationFamily) =>
  oidcError(ctx, family, "invalid_request", "interaction session not found");

/** GET interaction/<uid>: to the dashboard's consent page, with the project name the state's details carry. */
function interaction(ctx: OpContext, family: IntegrationFamily, uid: string, req: IdpRequest): IdpAnswer {
  const record = sessionInteraction(ctx, family, uid, req.cookies);
  if (!record) return sessionNotFound(ctx, family);
  const url = new URL(`${dashboardOrigin(ctx)}/integrations/${family}/confirm`);
  url.searchParams.set("interaction_uid", uid);
  const name = externalProjectName(record.state);
  if (name !== undefined) url.searchParams.set("external_project_name", name);
  return { kind: "redirect", status: 307, location: url.toString(), cookies: [] };
}

/** The state is base64 JSON whose `details` name the integration's project (Neon's older key too); else none. */
function externalProjectName(state: string | null): string | undefined {
  if (!state) return undefined;
  try {
    const text = base64UrlToText(state.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""));
    const details = (JSON.parse(text ?? "") as { details?: Record<string, unknown> } | null)?.details;
    const name = details?.external_project_name ?? details?.neon_project_name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * POST internal/confirm (the dashboard, on the `internal` project with server access): an admin key for the project
 * and the one-time code the browser brings back to the interaction. The interaction is not checked here (upstream's
 * neither): the code is bound to its uid and checked when it is used.
 */
export function confirmInteraction(
  ctx: OpContext,
  family: IntegrationFamily,
  callerProjectId: string,
  body: { interaction_uid: string; project_id: string; external_project_name?: string | undefined },
): { authorization_code: string } {
  if (callerProjectId !== INTERNAL_PROJECT_ID)
    throw knownError("SCHEMA_ERROR", {
      message: `Request validation failed on POST /api/v1/integrations/${family}/internal/confirm:\n  - auth.project.id must be one of the following values: internal`,
    });
  if (!ctx.tables.projects.get(body.project_id)) throw knownError("PROJECT_NOT_FOUND", { project_id: body.project_id });
  const named = body.external_project_name === undefined ? "an external project" : `"${body.external_project_name}"`;
  const keys = createInternalApiKey(ctx, body.project_id, {
    description: `Auto-generated for ${named} (DO NOT DELETE)`,
    expires_at_millis: ctx.now + 1000 * 60 * 60 * 24 * 365 * 100,
    has_publishable_client_key: false,
    has_secret_server_key: false,
    has_super_secret_admin_key: true,
  });
  const code = randomBase32(ctx.random, 224);
  save(ctx, {
    kind: "wrapper-code",
    id: code,
    family,
    interactionUid: body.interaction_uid,
    result: { access_token: keys.superSecretAdminKey!, token_type: "api_key", project_id: body.project_id },
  });
  return { authorization_code: code };
}

/**
 * POST interaction/<uid>/done?code=…: in upstream's order, the code (then gone, even if a later check fails), the
 * interaction's session cookie, the uid the code was made for; then a new account holds the result and the browser
 * resumes the authorization (303, no body).
 */
function finishInteraction(ctx: OpContext, family: IntegrationFamily, uid: string, req: IdpRequest): IdpAnswer {
  const code = find(ctx, family, "wrapper-code", req.query.code ?? "");
  if (!code) throw refusal("idpInvalidAuthorizationCode");
  const codeKey = key("wrapper-code", code.id);
  ctx.tables.integrationIdp.delete(codeKey);
  ctx.keepOnFailure((tables) => tables.integrationIdp.delete(codeKey));
  const record = sessionInteraction(ctx, family, uid, req.cookies);
  if (!record) return sessionNotFound(ctx, family);
  if (uid !== code.interactionUid) throw refusal("idpInteractionMismatch");
  const accountId = uuid(ctx.random);
  save(ctx, { kind: "account", id: accountId, family, result: code.result });
  save(ctx, { ...record, accountId });
  return {
    kind: "redirect",
    status: 303,
    location: `${idpBase(ctx, family)}/auth/${uid}`,
    cookies: [],
    emptyBody: true,
  };
}

/** GET auth/<uid>: the finished interaction becomes an authorization code at the client's redirect URI. */
function resume(ctx: OpContext, family: IntegrationFamily, uid: string, req: IdpRequest): IdpAnswer {
  const record = find(ctx, family, "interaction", uid);
  if (!record || !req.cookies._interaction_resume || req.cookies._interaction_resume !== record.resumeCookie)
    return sessionNotFound(ctx, family);
  const path = `${idpBasePath(family)}/auth/${uid}`;
  const cleared = signedCookie("_interaction_resume", "", path, 0);
  if (!record.accountId)
    return toClient(
      ctx,
      family,
      record.redirectUri,
      { error: "access_denied", error_description: "End-User aborted interaction" },
      record.state,
      cleared,
    );
  ctx.tables.integrationIdp.delete(key("interaction", uid));
  const code = randomBase32(ctx.random, 224);
  save(ctx, {
    kind: "code",
    id: code,
    family,
    clientId: record.clientId,
    redirectUri: record.redirectUri,
    codeChallenge: record.codeChallenge,
    accountId: record.accountId,
    expiresAtMillis: ctx.now + CODE_TTL_MILLIS,
  });
  return toClient(ctx, family, record.redirectUri, { code }, record.state, cleared);
}
