import { describe, expect, it } from "vitest";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { codeGrant, pkcePair, withToken } from "../../../test-support/strong-auth.ts";

/** The cross-domain session handoff (domain/ops/oauth/oauth-cross-domain.ts) and its code exchange (domain/ops/oauth/oauth-token.ts). */

const OTHER_DOMAIN_CALLBACK = "http://localhost:4000/handler/oauth-callback?cross_domain=1";

async function handoff(
  provider: TestProvider,
  tokens: { access?: string; refresh?: string },
  body: Record<string, unknown>,
): Promise<Response> {
  return api(provider, "/auth/oauth/cross-domain/authorize", {
    headers: client({ accessToken: tokens.access, refreshToken: tokens.refresh }),
    json: { redirect_uri: OTHER_DOMAIN_CALLBACK, state: "handoff-state", code_challenge_method: "S256", ...body },
  });
}

describe("cross-domain authorize", () => {
  it("hands the same session over once, for the matching S256 verifier", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    const { verifier, challenge } = await pkcePair("cross-domain");
    const body = await expectJson<{ redirect_url: string }>(
      await handoff(
        provider,
        { access: user.access_token, refresh: user.refresh_token },
        { code_challenge: challenge, after_callback_redirect_url: "http://localhost:4000/after" },
      ),
    );
    const to = new URL(body.redirect_url);
    expect([`${to.origin}${to.pathname}`, to.searchParams.get("cross_domain"), to.searchParams.get("state")]).toEqual([
      "http://localhost:4000/handler/oauth-callback",
      "1",
      "handoff-state",
    ]);
    const code = to.searchParams.get("code")!;

    await expectKnownError(
      await codeGrant(provider, code, (await pkcePair("wrong")).verifier, OTHER_DOMAIN_CALLBACK),
      "INVALID_AUTHORIZATION_CODE",
      400,
    );
    const tokens = await expectJson<{
      refresh_token: string;
      access_token: string;
      after_callback_redirect_url: string;
      is_new_user: boolean;
    }>(await codeGrant(provider, code, verifier, OTHER_DOMAIN_CALLBACK));
    expect(tokens).toMatchObject({
      refresh_token: user.refresh_token,
      after_callback_redirect_url: "http://localhost:4000/after",
      is_new_user: false,
    });
    expect(
      await expectJson(await api(provider, "/users/me", { headers: withToken(tokens.access_token) })),
    ).toMatchObject({ id: user.user_id });
    // One session, still: the handoff opened none.
    expect([...provider.store.read.sessions.values()].filter((s) => s.userId === user.user_id)).toHaveLength(1);
    await expectKnownError(
      await codeGrant(provider, code, verifier, OTHER_DOMAIN_CALLBACK),
      "INVALID_AUTHORIZATION_CODE",
      400,
    );
  });

  it("refuses untrusted redirect and after-callback URLs before issuing a code", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    const { challenge } = await pkcePair();
    const tokens = { access: user.access_token, refresh: user.refresh_token };
    await expectKnownError(
      await handoff(provider, tokens, { code_challenge: challenge, redirect_uri: "https://evil.example.net/cb" }),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
    await expectKnownError(
      await handoff(provider, tokens, {
        code_challenge: challenge,
        after_callback_redirect_url: "https://evil.example.net/x",
      }),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
    expect(provider.store.read.oauthAuthorizationCodes.size).toBe(0);
  });

  it("needs a signed-in user with the current refresh token of that very session", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    const other = await signUp(provider);
    const { challenge } = await pkcePair();
    const refused = async (tokens: { access?: string; refresh?: string }) => {
      const response = await handoff(provider, tokens, { code_challenge: challenge });
      return [response.status, response.headers.get("x-stack-known-error") ?? (await response.text())];
    };
    expect(await refused({ refresh: user.refresh_token })).toEqual([401, "USER_AUTHENTICATION_REQUIRED"]);
    expect(await refused({ access: user.access_token })).toEqual([
      400,
      "Cross-domain auth handoff requires passing the current refresh token.",
    ]);
    const mismatch = "Cross-domain auth handoff refresh token does not match the authenticated session.";
    expect(await refused({ access: user.access_token, refresh: "not-a-refresh-token" })).toEqual([401, mismatch]);
    expect(await refused({ access: user.access_token, refresh: other.refresh_token })).toEqual([401, mismatch]);
  });

  it("checks the PKCE challenge's shape and takes S256 only", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    const tokens = { access: user.access_token, refresh: user.refresh_token };
    const short = await expectKnownError(
      await handoff(provider, tokens, { code_challenge: "too-short" }),
      "SCHEMA_ERROR",
      400,
    );
    expect(short.error).toContain("body.code_challenge must match the following");
    const { challenge } = await pkcePair();
    const plain = await expectKnownError(
      await handoff(provider, tokens, { code_challenge: challenge, code_challenge_method: "plain" }),
      "SCHEMA_ERROR",
      400,
    );
    expect(plain.error).toContain("body.code_challenge_method must be one of the following values: S256");
  });
});
