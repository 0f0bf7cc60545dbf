import { randomBase32 } from "@authsim/sdk/runtime";
import { knownError, KnownErrorException } from "../../errors/known-error.ts";
import { withResponseHeaders } from "../../errors/error-headers.ts";
import { RedirectingError } from "../../errors/redirect-error.ts";
import type { ProjectRecord, UserRecord } from "../../store/records.ts";
import type { MockIdentity, OAuthAuthorizationCodeRecord, OAuthFlowRecord } from "../../store/strong-auth-records.ts";
import type { OpContext } from "../context.ts";
import { accountsOfUser, anyAccountFor, newAccount, recordGrant, signInAccountFor } from "./oauth-accounts.ts";
import { isAllowedOAuthRedirect } from "./oauth-client.ts";
import { requireEnabledProvider } from "./oauth-config.ts";
import { authChannelFor } from "../users/primary-channel.ts";
import { applySignUpRules } from "../sign-in/sign-up-rules.ts";
import { newUserRecord, saveUser } from "../users/users.ts";
import { refusal } from "../../errors/refusals.ts";

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
  if (!user) throw refusal("userAccountWasLinkedNo");
  const own = accountsOfUser(ctx, user.id).find((a) => a.providerConfigId === flow.providerConfigId);
  if (own && own.providerAccountId !== identity.accountId)
    throw knownError("USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION");
  const holder = anyAccountFor(ctx, project.id, flow.providerConfigId, identity.accountId);
  if (holder && holder.userId !== user.id) throw knownError("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER");
  if (!holder)
    newAccount(ctx, user, {
      providerConfigId: flow.providerConfigId,
      providerAccountId: identity.accountId,
      email: identity.email,
    });
  return { user, isNewUser: false };
}

/** An address already used for sign-in by someone: what the project's merge strategy says to do (spec §3). */
function mergeByEmail(
  ctx: OpContext,
  project: ProjectRecord,
  flow: OAuthFlowRecord,
  identity: MockIdentity,
  email: string,
): Outcome | "new-without-email-auth" | null {
  const channel = authChannelFor(ctx.tables, project.id, email);
  if (!channel) return null;
  const strategy = project.config.oauth_account_merge_strategy;
  if (strategy === "allow_duplicates") return "new-without-email-auth";
  // Linking on an unverified address would hand the account to whoever typed it; both sides must be verified.
  // Only an unverified existing address is one that verifying would fix; raise_error and an unverified new one are not.
  const refuse = (wouldWork: boolean) =>
    knownError("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {
      type: "email",
      contact_channel_value: email,
      would_work_if_email_was_verified: wouldWork,
    });
  if (strategy === "raise_error") throw refuse(false);
  if (!channel.isVerified) throw refuse(true);
  if (!identity.emailVerified) throw refuse(false);
  const user = ctx.tables.users.get(channel.userId)!;
  newAccount(ctx, user, { providerConfigId: flow.providerConfigId, providerAccountId: identity.accountId, email });
  return { user, isNewUser: false };
}

async function authenticate(
  ctx: OpContext,
  project: ProjectRecord,
  flow: OAuthFlowRecord,
  identity: MockIdentity,
): Promise<Outcome> {
  const existing = signInAccountFor(ctx, project.id, flow.providerConfigId, identity.accountId);
  const existingUser = existing ? ctx.tables.users.get(existing.userId) : undefined;
  if (existingUser) return { user: existingUser, isNewUser: false };
  let emailAuth = identity.email !== null;
  if (identity.email !== null) {
    const merged = mergeByEmail(ctx, project, flow, identity, identity.email);
    if (merged === "new-without-email-auth") emailAuth = false;
    else if (merged) return merged;
  }
  // Only a new user is a sign-up: linking to an existing account by its address works with sign-ups off.
  if (!project.config.sign_up_enabled) throw knownError("SIGN_UP_NOT_ENABLED");
  // The project's sign-up rules (domain/ops/sign-in/sign-up-rules.ts): a rejection becomes the flow's error redirect.
  const current = flow.userId ? ctx.tables.users.get(flow.userId) : undefined;
  const ruled = await applySignUpRules(ctx, project.id, {
    email: identity.email,
    authMethod: "oauth",
    oauthProvider: flow.providerConfigId,
    current: current?.isAnonymous ? current : null,
  });
  const fields = {
    ...ruled,
    displayName: identity.displayName,
    primaryEmail: identity.email,
    primaryEmailVerified: identity.email !== null && identity.emailVerified,
    primaryEmailAuthEnabled: emailAuth,
  };
  // A signed-in anonymous user is upgraded rather than left behind (protocol.md §7.8).
  const user = saveUser(
    ctx,
    current?.isAnonymous ? { ...current, ...fields, isAnonymous: false } : newUserRecord(ctx, project.id, fields),
  );
  newAccount(ctx, user, {
    providerConfigId: flow.providerConfigId,
    providerAccountId: identity.accountId,
    email: identity.email,
  });
  return { user, isNewUser: true };
}

/**
 * What the real service makes of an identity provider's `error` (its inner callback, through openid-client): a denial
 * or a refused consent is OAUTH_PROVIDER_ACCESS_DENIED; a provider that is down or failed is
 * OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE (both sent where refusals go: errorRedirect). Other codes make the real service fail (a 400 for
 * invalid_client, else a 500); the emulator answers them as a denial (never a 500).
 */
function providerError(error: string): never {
  if (["server_error", "temporarily_unavailable", "timeout"].includes(error.toLowerCase()))
    throw knownError("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE");
  throw knownError("OAUTH_PROVIDER_ACCESS_DENIED");
}

/**
 * Where a refused callback sends the browser, as the real service chooses: the app's own redirect URI when it is an
 * allowed one (the SDK's callback page reads the error there), else the flow's error URL when that one is, else nowhere
 * (the known error is answered itself). An untrusted error URL is never followed.
 */
function errorRedirect(
  project: ProjectRecord | undefined,
  flow: OAuthFlowRecord,
  error: KnownErrorException,
): RedirectingError | null {
  const candidates = [flow.redirectUri, flow.errorRedirectUrl];
  const target = project
    ? candidates.find((url): url is string => !!url && isAllowedOAuthRedirect(project, url))
    : undefined;
  if (!target) return null;
  const url = new URL(target);
  url.searchParams.set("error", "server_error");
  url.searchParams.set("error_description", error.message);
  url.searchParams.set("errorCode", error.code);
  url.searchParams.set("message", error.message);
  url.searchParams.set("details", JSON.stringify(error.details ?? {}));
  return new RedirectingError(url.toString(), error);
}

/** What the callback needs of the browser: the flow's inner-state cookie, and how to delete it. */
export interface CallbackBrowser {
  hasInnerCookie(innerState: string): boolean;
  /** The Set-Cookie header value that deletes the flow's inner-state cookie. */
  spentInnerCookie(innerState: string): string;
}

export interface CallbackAnswer {
  location: string;
  headers: [string, string][];
}

/**
 * The identity provider's code could not be redeemed (unknown, already used, or for another provider): the real
 * service's OAuth client calls that an invalid grant and answers a plain 400, never the error redirect.
 */
const invalidInnerGrant = () => refusal("innerOauthCallbackFailedDue");

/**
 * The callback. The flow is found by its inner state; a flow started in redirect mode then needs the browser's
 * inner-state cookie (without it the flow was not started by this browser: CSRF), which every answer from here on
 * deletes (one callback per flow). A flow in JSON mode set no cookie: PKCE protects it.
 */
export async function oauthCallback(
  ctx: OpContext,
  providerId: string,
  input: CallbackInput,
  browser: CallbackBrowser,
): Promise<CallbackAnswer> {
  const innerState = input.state ?? "";
  const flow = ctx.tables.oauthFlows.get(innerState);
  if (!flow) throw refusal("invalidOauthStatePleaseTry");
  const headers: [string, string][] = flow.jsonMode ? [] : [["set-cookie", browser.spentInnerCookie(innerState)]];
  if (!flow.jsonMode && !browser.hasInnerCookie(innerState)) {
    // Another browser's (or a forged) callback does not use up the flow of the browser that started it.
    throw withResponseHeaders(refusal("innerOauthCookieFoundLikely"), headers);
  }
  // One callback per flow, even a refused one.
  ctx.keepOnFailure((tables) => tables.oauthFlows.delete(innerState));
  try {
    return { location: await redeem(ctx, providerId, input, flow), headers };
  } catch (error) {
    throw withResponseHeaders(error, headers);
  }
}

async function redeem(
  ctx: OpContext,
  providerId: string,
  input: CallbackInput,
  flow: OAuthFlowRecord,
): Promise<string> {
  const project = ctx.tables.projects.get(flow.projectId);
  try {
    if (flow.expiresAtMillis <= ctx.now) throw knownError("OUTER_OAUTH_TIMEOUT");
    if (!project) throw knownError("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    requireEnabledProvider(project, providerId);
    if (input.error !== undefined) providerError(input.error);
    // The code was issued for the flow's provider; redeemed at another one it is unknown there.
    if (providerId !== flow.providerConfigId || !input.code || input.code !== flow.innerCode || !flow.identity)
      throw invalidInnerGrant();
    // The app's redirect URI is judged now, before any user is signed in or created.
    if (!isAllowedOAuthRedirect(project, flow.redirectUri)) throw knownError("REDIRECT_URL_NOT_WHITELISTED");
    const identity = flow.identity;
    const { user, isNewUser } =
      flow.type === "link" ? link(ctx, project, flow, identity) : await authenticate(ctx, project, flow, identity);
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
    const redirect = error instanceof KnownErrorException ? errorRedirect(project, flow, error) : null;
    throw redirect ?? error;
  }
}
