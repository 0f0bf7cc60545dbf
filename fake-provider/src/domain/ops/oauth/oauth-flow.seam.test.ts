import { describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { constants, type OAuthAuthorizeQuery } from "@authsim/sdk/contract";
import { devSeedWith, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { KnownErrorException } from "../../errors/known-error.ts";
import { RedirectingError } from "../../errors/redirect-error.ts";
import type { MockIdentity } from "../../store/strong-auth-records.ts";
import type { OpContext } from "../context.ts";
import { accountsOfUser } from "./oauth-accounts.ts";
import { authorize, mockIdpPath, OUTER_OAUTH_FLOW_MILLIS } from "./oauth-authorize.ts";
import { oauthCallback, type CallbackBrowser, type CallbackInput } from "./oauth-callback.ts";
import { decide } from "./oauth-idp.ts";
import { exchangeAuthorizationCode, s256Challenge } from "./oauth-token.ts";

/**
 * The OAuth sign-in flow at its ops' seam (protocol.md §7.5, §4.4): authorize, the mock identity provider's answer, the
 * callback, and the code exchange with its PKCE verifier. The dev project has google on its own keys and github on
 * shared ones (domain/ops/oauth/oauth-config.ts).
 */

const DEV = devProjectSeed;
const REDIRECT = "http://localhost:3000/handler/oauth-callback";
const VERIFIER = "a-pkce-verifier-of-enough-length-0123456789";
const identity: MockIdentity = {
  accountId: "google-7",
  email: "oauth@example.com",
  emailVerified: true,
  displayName: "O. Auth",
  scopes: ["openid", "email"],
};
/** The browser that started the flow: it holds the inner-state cookie. */
const sameBrowser: CallbackBrowser = {
  hasInnerCookie: () => true,
  spentInnerCookie: (state) => `stack-oauth-inner-${state}=; Max-Age=0`,
};

async function query(extra: Partial<OAuthAuthorizeQuery> = {}): Promise<OAuthAuthorizeQuery> {
  return {
    client_id: DEV.id,
    client_secret: DEV.keys.publishable_client_key,
    redirect_uri: REDIRECT,
    scope: constants.oauthScope,
    state: "app-state",
    grant_type: "authorization_code",
    code_challenge: await s256Challenge(VERIFIER),
    code_challenge_method: "S256",
    response_type: "code",
    type: "authenticate",
    ...extra,
  };
}

/** Authorize, then the person signs in at the identity provider: answers the flow's inner state and the callback input. */
async function startAndSignIn(seam: OpSeam, who: MockIdentity = identity, provider = "google") {
  const { flow, location } = await seam.ok(async (ctx) => authorize(ctx, provider, await query()));
  expect(location).toBe(`${seam.settings.apiBaseUrl}${mockIdpPath(provider)}?state=${flow.innerState}`);
  const callback = new URL(
    await seam.ok((ctx) => decide(ctx, provider, flow.innerState, { deny: false, identity: who })),
  );
  return {
    innerState: flow.innerState,
    input: {
      state: callback.searchParams.get("state") ?? undefined,
      code: callback.searchParams.get("code") ?? undefined,
    },
  };
}

/** The callback, with a refusal that redirects to the app turned into its known error (and where it sent the browser). */
function callback(input: CallbackInput, browser = sameBrowser, provider = "google") {
  const redirected: string[] = [];
  const op = async (ctx: OpContext) => {
    try {
      return await oauthCallback(ctx, provider, input, browser);
    } catch (error) {
      if (error instanceof RedirectingError) {
        redirected.push(error.location);
        throw error.error;
      }
      throw error;
    }
  };
  return { op, redirected };
}

const codeFrom = (location: string) => new URL(location).searchParams.get("code")!;
const exchange =
  (code: string, extra: { redirect_uri?: string; code_verifier?: string } = {}) =>
  (ctx: OpContext) =>
    exchangeAuthorizationCode(ctx, ctx.tables.projects.get(DEV.id)!, {
      grant_type: "authorization_code",
      client_id: DEV.id,
      code,
      redirect_uri: REDIRECT,
      code_verifier: VERIFIER,
      ...extra,
    });

describe("the whole flow", () => {
  it("signs a new user up: the callback sends the browser back with a code, which the verifier exchanges once", async () => {
    const seam = opSeam();
    const { input } = await startAndSignIn(seam);
    const { location, headers } = await seam.ok(callback(input).op);
    expect(new URL(location).searchParams.get("state")).toBe("app-state");
    expect(location.startsWith(`${REDIRECT}?`)).toBe(true);
    expect(headers).toEqual([["set-cookie", `stack-oauth-inner-${input.state}=; Max-Age=0`]]);
    const tokens = await seam.ok(exchange(codeFrom(location)));
    expect(tokens).toMatchObject({
      token_type: "Bearer",
      is_new_user: true,
      newUser: true,
      after_callback_redirect_url: null,
    });
    const user = [...seam.tables.users.values()].find((u) => u.primaryEmail === "oauth@example.com")!;
    expect(user).toMatchObject({ displayName: "O. Auth", primaryEmailVerified: true });
    expect(accountsOfUser(seam, user.id).map((a) => [a.providerConfigId, a.providerAccountId])).toEqual([
      ["google", "google-7"],
    ]);
    await seam.refuses(exchange(codeFrom(location)), "INVALID_AUTHORIZATION_CODE");
  });

  it("signs the same account in again as the same user, not a new one", async () => {
    const seam = opSeam();
    const first = await seam.ok(callback((await startAndSignIn(seam)).input).op);
    await seam.ok(exchange(codeFrom(first.location)));
    const again = await seam.ok(callback((await startAndSignIn(seam)).input).op);
    expect((await seam.ok(exchange(codeFrom(again.location)))).is_new_user).toBe(false);
    expect([...seam.tables.users.values()].filter((u) => u.primaryEmail === "oauth@example.com")).toHaveLength(1);
  });
});

describe("authorize", () => {
  it("refuses, in the real service's order, a wrong key, a provider not enabled, a wrong scope, a link without a token", async () => {
    const seam = opSeam();
    const run = (provider: string, extra: Partial<OAuthAuthorizeQuery>) => async (ctx: OpContext) =>
      authorize(ctx, provider, await query(extra));
    await seam.refuses(run("facebook", { client_secret: "pck_wrong" }), "INVALID_PUBLISHABLE_CLIENT_KEY");
    await seam.refuses(run("facebook", { scope: "openid" }), "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    await seam.refuses(run("google", { scope: "openid", type: "link" }), "INVALID_SCOPE");
    expect((await seam.refuses(run("google", { type: "link" }), 400)).message).toBe(
      "?token= query parameter is required for link type",
    );
  });

  it("refuses an untrusted after-callback URL, extra scopes on shared keys, an unknown PKCE method and a bad token", async () => {
    const seam = opSeam();
    const run = (provider: string, extra: Partial<OAuthAuthorizeQuery>) => async (ctx: OpContext) =>
      authorize(ctx, provider, await query(extra));
    await seam.refuses(
      run("google", { after_callback_redirect_url: "https://evil.example.com/next" }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    await seam.refuses(
      run("github", { provider_scope: "repo" }),
      "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
    );
    expect((await seam.refuses(run("google", { code_challenge_method: "S512" }), 400)).message).toBe(
      "Invalid request: transform algorithm 'S512' not supported",
    );
    await seam.refuses(run("google", { token: "not-a-token" }), "UNPARSABLE_ACCESS_TOKEN");
  });
});

describe("the identity provider's page", () => {
  it("refuses a flow it does not know and an empty account id", async () => {
    const seam = opSeam();
    await seam.refuses((ctx) => decide(ctx, "google", "no-such-state", { deny: false, identity }), 404);
    const { flow } = await seam.ok(async (ctx) => authorize(ctx, "google", await query()));
    expect(
      (
        await seam.refuses(
          (ctx) => decide(ctx, "google", flow.innerState, { deny: false, identity: { ...identity, accountId: "  " } }),
          400,
        )
      ).message,
    ).toBe("The account id must not be empty.");
  });
});

describe("oauthCallback", () => {
  /** A refused callback uses the flow up (one callback per flow) and writes nothing else. */
  async function refusedCallback(seam: OpSeam, innerState: string, run: (ctx: OpContext) => unknown) {
    const users = seam.tables.users.size;
    const outcome = await seam.run(run);
    expect(seam.tables.oauthFlows.has(innerState)).toBe(false);
    expect([seam.tables.users.size, seam.tables.oauthAccounts.size, seam.tables.oauthAuthorizationCodes.size]).toEqual([
      users,
      0,
      0,
    ]);
    if (outcome.ok) throw new Error("the callback succeeded");
    return outcome.error;
  }

  it("refuses an unknown state, and another browser's callback without using the flow up", async () => {
    const seam = opSeam();
    await seam.refuses(callback({ state: "no-such-state" }).op, 400);
    const { innerState, input } = await startAndSignIn(seam);
    const otherBrowser: CallbackBrowser = { ...sameBrowser, hasInnerCookie: () => false };
    expect((await seam.refuses(callback(input, otherBrowser).op, 400)).message).toMatch(
      /^Inner OAuth cookie not found/,
    );
    expect(seam.tables.oauthFlows.has(innerState)).toBe(true);
  });

  it("answers a denial at the provider with OAUTH_PROVIDER_ACCESS_DENIED, back at the app's redirect URI", async () => {
    const seam = opSeam();
    const { innerState } = await startAndSignIn(seam);
    const { op, redirected } = callback({ state: innerState, error: "access_denied" });
    const error = await refusedCallback(seam, innerState, op);
    expect(error).toBeInstanceOf(KnownErrorException);
    const back = new URL(redirected[0]!);
    expect([`${back.origin}${back.pathname}`, back.searchParams.get("errorCode")]).toEqual([
      REDIRECT,
      "OAUTH_PROVIDER_ACCESS_DENIED",
    ]);
  });

  it("refuses a wrong code (plain 400), a flow past its hour (OUTER_OAUTH_TIMEOUT) and a sign-up where sign-ups are off", async () => {
    const seam = opSeam({ seed: devSeedWith({ sign_up_enabled: false }) });
    const wrong = await startAndSignIn(seam);
    expect(await refusedCallback(seam, wrong.innerState, callback({ ...wrong.input, code: "wrong" }).op)).toMatchObject(
      { status: 400, message: "Inner OAuth callback failed due to invalid grant. Please try again." },
    );
    const late = await startAndSignIn(seam);
    seam.clock.advance(OUTER_OAUTH_FLOW_MILLIS);
    expect(await refusedCallback(seam, late.innerState, callback(late.input).op)).toMatchObject({
      code: "OUTER_OAUTH_TIMEOUT",
    });
    const closed = await startAndSignIn(seam);
    expect(await refusedCallback(seam, closed.innerState, callback(closed.input).op)).toMatchObject({
      code: "SIGN_UP_NOT_ENABLED",
    });
  });
});

describe("exchangeAuthorizationCode", () => {
  it("refuses an unknown code, another redirect URI and a wrong verifier, and the code stays usable after them", async () => {
    const seam = opSeam();
    const code = codeFrom((await seam.ok(callback((await startAndSignIn(seam)).input).op)).location);
    await seam.refuses(exchange("no-such-code"), "INVALID_AUTHORIZATION_CODE");
    expect(
      (await seam.refuses(exchange(code, { redirect_uri: "http://localhost:3000/elsewhere" }), 400)).message,
    ).toMatch(/^Invalid redirect URI/);
    await seam.refuses(
      exchange(code, { code_verifier: "another-verifier-of-enough-length-01234567" }),
      "INVALID_AUTHORIZATION_CODE",
    );
    expect((await seam.ok(exchange(code))).is_new_user).toBe(true);
  });

  it("refuses a code past its five minutes", async () => {
    const seam = opSeam();
    const code = codeFrom((await seam.ok(callback((await startAndSignIn(seam)).input).op)).location);
    seam.clock.advance(5 * 60_000);
    await seam.refuses(exchange(code), "INVALID_AUTHORIZATION_CODE");
  });
});
