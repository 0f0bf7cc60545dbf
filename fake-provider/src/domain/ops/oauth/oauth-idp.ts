import { API_PREFIX } from "@authsim/sdk/contract";
import { randomBase32 } from "@authsim/sdk/runtime";
import type { MockIdentity, OAuthFlowRecord } from "../../store/strong-auth-records.ts";
import type { Tables } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import { scopesOf } from "./oauth-accounts.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * The emulator's mock identity provider (the stand-in for GitHub, Google, …): a page where a person or a test names
 * the account that signs in (id, email, name, granted scopes) or denies access. Its answer goes to the provider's
 * callback like a real provider's would: `code` + inner `state`, or `error=access_denied` (RFC 6749 §4.1.2.1).
 */

/** The scopes the mock provider asks for by default, per provider (what the real ones ask for sign-in). */
const defaultScopes: Record<string, readonly string[]> = {
  github: ["read:user", "user:email"],
  google: ["openid", "email", "profile"],
  microsoft: ["openid", "email", "profile", "offline_access"],
  spotify: ["user-read-email", "user-read-private"],
};

/** The provider's default sign-in scopes plus the extra ones the client asked for (`provider_scope`). */
export function requestedScopes(flow: Pick<OAuthFlowRecord, "providerConfigId" | "providerScope">): string[] {
  const base = defaultScopes[flow.providerConfigId] ?? ["openid", "email", "profile"];
  return [...new Set([...base, ...scopesOf(flow.providerScope)])];
}

export function flowForPage(tables: Tables, providerId: string, innerState: string): OAuthFlowRecord {
  const flow = tables.oauthFlows.get(innerState);
  if (!flow || flow.providerConfigId !== providerId) throw refusal("noOauthSignWaitingPage");
  return flow;
}

/**
 * The errors the page can answer with instead of an account (RFC 6749 §4.1.2.1), each as a provider sends it. The
 * callback treats them as the real service does (domain/ops/oauth/oauth-callback.ts `providerError`).
 */
export const IDP_ERRORS = [
  {
    code: "temporarily_unavailable",
    label: "the provider is overloaded or down",
    description: "The authorization server is temporarily unable to handle the request.",
  },
  {
    code: "server_error",
    label: "the provider failed",
    description: "The authorization server encountered an unexpected condition.",
  },
  {
    code: "consent_required",
    label: "the user must consent first",
    description: "The user has not granted consent to this application.",
  },
] as const;
export type IdpErrorCode = (typeof IDP_ERRORS)[number]["code"];
export const isIdpErrorCode = (code: string): code is IdpErrorCode => IDP_ERRORS.some((e) => e.code === code);

/** The person's answer: an account, a denial (access_denied) or one of the errors above. */
export type IdpDecision = { deny: true; error?: IdpErrorCode } | { deny: false; identity: MockIdentity };

/** The person's choice; the answer is the callback URL the browser goes to next. */
export function decide(ctx: OpContext, providerId: string, innerState: string, decision: IdpDecision): string {
  const flow = flowForPage(ctx.tables, providerId, innerState);
  const callback = new URL(
    `${ctx.settings.apiBaseUrl}${API_PREFIX}/auth/oauth/callback/${encodeURIComponent(providerId)}`,
  );
  callback.searchParams.set("state", flow.innerState);
  if (decision.deny) {
    const error = IDP_ERRORS.find((e) => e.code === decision.error);
    callback.searchParams.set("error", error?.code ?? "access_denied");
    callback.searchParams.set(
      "error_description",
      error?.description ?? "The user denied access at the identity provider.",
    );
    return callback.toString();
  }
  const identity = decision.identity;
  if (identity.accountId.trim() === "") throw refusal("accountIdEmpty");
  // A provider grants at most what it was asked for.
  const requested = requestedScopes(flow);
  const granted = identity.scopes.filter((s) => requested.includes(s));
  callback.searchParams.set(
    "code",
    grantInnerCode(ctx, flow, { ...identity, accountId: identity.accountId.trim(), scopes: granted }),
  );
  return callback.toString();
}

/**
 * Who signed in at the identity provider for this flow (this page, or the mock OAuth server of emulator/mock-oauth/server.ts):
 * recorded on the flow with a fresh inner code, which the callback redeems. Answers the code.
 */
export function grantInnerCode(ctx: OpContext, flow: OAuthFlowRecord, identity: MockIdentity): string {
  const innerCode = randomBase32(ctx.random, 160);
  ctx.tables.oauthFlows.set(flow.innerState, { ...flow, innerCode, identity });
  return innerCode;
}
