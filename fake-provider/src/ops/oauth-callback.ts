import { randomBase32 } from "@authsim/sdk/runtime";
import { knownError, KnownErrorException, StatusError } from "../http/known-error.ts";
import { RedirectingError } from "../http/redirect-error.ts";
import type { ProjectRecord, UserRecord } from "../store/records.ts";
import type { MockIdentity, OAuthAuthorizationCodeRecord, OAuthFlowRecord } from "../store/strong-auth-records.ts";
import type { OpContext } from "./context.ts";
import { accountsOfUser, anyAccountFor, newAccount, recordGrant, signInAccountFor } from "./oauth-accounts.ts";
import { requireEnabledProvider } from "./oauth-config.ts";
import { authChannelFor } from "./primary-channel.ts";
import { applySignUpRules } from "./sign-up-rules.ts";
import { newUserRecord, saveUser } from "./users.ts";

/**
 * GET|POST /auth/oauth/callback/{provider} (protocol.md §7.5 step 2): the identity provider's answer becomes a user —
 * signed in, signed up, linked, or merged by the project's oauth_account_merge_strategy — and an authorization code
 * for the client, sent to its redirect_uri with the client's state. A known error goes to the flow's error URL.
 */

/** RFC 6749 §4.1.2: short-lived; node-oauth2-server's default lifetime. */
export const AUTHORIZATION_CODE_MILLIS = 5 * 60 * 1000;

export interface CallbackInput {
  state?: string | undefined;
  code?: string | undefined;
  error?: string | undefined;
}

interface Outcome {
  user: UserRecord;
  isNewUser: boolean;
}

function link(ctx: OpContext, project: ProjectRecord, flow: OAuthFlowRecord, identity: MockIdentity): Outcome {
  const user = flow.userId ? ctx.tables.users.get(flow.userId) : undefined;
  if (!user) throw new StatusError(400, "The user this account was to be linked to no longer exists.");
  const own = accountsOfUser(ctx, user.id).find((a) => a.providerConfigId === flow.providerConfigId);
  if (own && own.providerAccountId !== identity.accountId) throw knownError("USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION");
  const holder = anyAccountFor(ctx, project.id, flow.providerConfigId, identity.accountId);
  if (holder && holder.userId !== user.id) throw knownError("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER");
  if (!holder) newAccount(ctx, user, { providerConfigId: flow.providerConfigId, providerAccountId: identity.accountId, email: identity.email });
  return { user, isNewUser: false };
}

/** An address already used for sign-in by someone: what the project's merge strategy says to do (spec §3). */
function mergeByEmail(ctx: OpContext, project: ProjectRecord, flow: OAuthFlowRecord, identity: MockIdentity, email: string): Outcome | "new-without-email-auth" | null {
  const channel = authChannelFor(ctx.tables, project.id, email);
  if (!channel) return null;
  const strategy = project.config.oauth_account_merge_strategy;
  if (strategy === "allow_duplicates") return "new-without-email-auth";
  // Linking on an unverified address would hand the account to whoever typed it; both sides must be verified.
  const verified = channel.isVerified && identity.emailVerified;
  if (strategy === "raise_error" || !verified) {
    throw knownError("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", { type: "email", contact_channel_value: email, would_work_if_email_was_verified: !verified });
  }
  const user = ctx.tables.users.get(channel.userId)!;
  newAccount(ctx, user, { providerConfigId: flow.providerConfigId, providerAccountId: identity.accountId, email });
  return { user, isNewUser: false };
}

function authenticate(ctx: OpContext, project: ProjectRecord, flow: OAuthFlowRecord, identity: MockIdentity): Outcome {
  const existing = signInAccountFor(ctx, project.id, flow.providerConfigId, identity.accountId);
  const existingUser = existing ? ctx.tables.users.get(existing.userId) : undefined;
  if (existingUser) return { user: existingUser, isNewUser: false };
  if (!project.config.sign_up_enabled) throw knownError("SIGN_UP_NOT_ENABLED");
  let emailAuth = identity.email !== null;
  if (identity.email !== null) {
    const merged = mergeByEmail(ctx, project, flow, identity, identity.email);
    if (merged === "new-without-email-auth") emailAuth = false;
    else if (merged) return merged;
  }
  // The project's sign-up rules (ops/sign-up-rules.ts): a rejection becomes the flow's error redirect.
  const current = flow.userId ? ctx.tables.users.get(flow.userId) : undefined;
  const ruled = applySignUpRules(ctx, project.id, { email: identity.email, authMethod: "oauth", oauthProvider: flow.providerConfigId, current: current?.isAnonymous ? current : null });
  const fields = {
    ...ruled,
    displayName: identity.displayName,
    primaryEmail: identity.email,
    primaryEmailVerified: identity.email !== null && identity.emailVerified,
    primaryEmailAuthEnabled: emailAuth,
  };
  // A signed-in anonymous user is upgraded rather than left behind (protocol.md §7.8).
  const user = saveUser(ctx, current?.isAnonymous ? { ...current, ...fields, isAnonymous: false } : newUserRecord(ctx, project.id, fields));
  newAccount(ctx, user, { providerConfigId: flow.providerConfigId, providerAccountId: identity.accountId, email: identity.email });
  return { user, isNewUser: true };
}

/**
 * What the real service makes of an identity provider's `error` (its inner callback, through openid-client): a denial
 * or a refused consent is OAUTH_PROVIDER_ACCESS_DENIED; a provider that is down or failed is
 * OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE (both go to the error URL). Other codes make the real service fail (a 400 for
 * invalid_client, else a 500); the emulator answers them as a denial (never a 500).
 */
function providerError(error: string): never {
  if (["server_error", "temporarily_unavailable", "timeout"].includes(error.toLowerCase())) throw knownError("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE");
  throw knownError("OAUTH_PROVIDER_ACCESS_DENIED");
}

function errorRedirect(flow: OAuthFlowRecord, error: KnownErrorException): RedirectingError | null {
  if (!flow.errorRedirectUrl) return null;
  const url = new URL(flow.errorRedirectUrl);
  url.searchParams.set("error", "server_error");
  url.searchParams.set("error_description", error.message);
  url.searchParams.set("errorCode", error.code);
  url.searchParams.set("message", error.message);
  url.searchParams.set("details", JSON.stringify(error.details ?? {}));
  return new RedirectingError(url.toString(), error);
}

/**
 * The callback. `hasInnerCookie` says whether the browser carries the flow's inner-state cookie: without it the flow
 * was not started by this browser (CSRF), so it is refused before anything else.
 */
export function oauthCallback(ctx: OpContext, providerId: string, input: CallbackInput, hasInnerCookie: (innerState: string) => boolean): string {
  const innerState = input.state ?? "";
  if (!hasInnerCookie(innerState)) {
    throw new StatusError(400, "Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again");
  }
  const flow = ctx.tables.oauthFlows.get(innerState);
  if (!flow) throw new StatusError(400, "Invalid OAuth cookie. Please try signing in again.");
  // One callback per flow, even a refused one.
  ctx.keepOnFailure((tables) => tables.oauthFlows.delete(innerState));
  try {
    if (flow.expiresAtMillis <= ctx.now) throw knownError("OUTER_OAUTH_TIMEOUT");
    const project = ctx.tables.projects.get(flow.projectId);
    if (!project || providerId !== flow.providerConfigId) throw knownError("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    requireEnabledProvider(project, providerId);
    if (input.error !== undefined) providerError(input.error);
    if (!input.code || input.code !== flow.innerCode || !flow.identity) throw knownError("INVALID_AUTHORIZATION_CODE");
    const identity = flow.identity;
    const { user, isNewUser } = flow.type === "link" ? link(ctx, project, flow, identity) : authenticate(ctx, project, flow, identity);
    recordGrant(ctx, project.id, flow.providerConfigId, identity.accountId, identity.scopes);
    const code: OAuthAuthorizationCodeRecord = {
      code: randomBase32(ctx.random, 224),
      projectId: project.id,
      userId: user.id,
      redirectUri: flow.redirectUri,
      codeChallenge: flow.codeChallenge,
      codeChallengeMethod: flow.codeChallengeMethod ?? "S256",
      isNewUser,
      afterCallbackRedirectUrl: flow.afterCallbackRedirectUrl,
      expiresAtMillis: ctx.now + AUTHORIZATION_CODE_MILLIS,
    };
    ctx.tables.oauthAuthorizationCodes.set(code.code, code);
    const target = new URL(flow.redirectUri);
    target.searchParams.set("code", code.code);
    target.searchParams.set("state", flow.state);
    return target.toString();
  } catch (error) {
    const redirect = error instanceof KnownErrorException ? errorRedirect(flow, error) : null;
    throw redirect ?? error;
  }
}
