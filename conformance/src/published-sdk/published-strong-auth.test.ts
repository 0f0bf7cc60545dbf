import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StackClientApp } from "@stackframe/js";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { controlClient } from "@authsim/sdk/emulator";
import { serveFakeProvider, type ServedProvider } from "../harness/serve.ts";
import { publishedApps } from "./published-apps.ts";

/**
 * What the published @stackframe/js (2.8.108) exposes of strong auth, unchanged against the fake over a real port:
 * signInWithMfa with the provider's attempt code, promptCliLogin, OAuth provider links (server create with the
 * "already used" result, client list/update/delete) and connected-account tokens. Its OAuth redirect flow and passkeys
 * need a browser (window, navigator.credentials) and are skipped here with that reason; our SDK's suites cover them.
 */
let served: ServedProvider;
beforeAll(async () => {
  served = await serveFakeProvider();
});
afterAll(async () => {
  await served.close();
});

const { clientApp, serverApp } = publishedApps(() => served);

const PASSWORD = "password-123";
/** The published runtime reads waitTimeMillis and maxAttempts (documented in its JSDoc); its declared type omits them. */
type CliOptions = Parameters<StackClientApp["promptCliLogin"]>[0];
const cliOptions = (o: CliOptions & { waitTimeMillis: number; maxAttempts: number }): CliOptions => o;
const BROWSER_REASON =
  "needs a browser (window.location and navigator.credentials); covered by our SDK's strong-auth suites";

async function signedUp(email: string) {
  const client = clientApp();
  expect(
    (await client.signUpWithCredential({ email, password: PASSWORD, noVerificationCallback: true, noRedirect: true }))
      .status,
  ).toBe("ok");
  return { client, user: await client.getUser({ or: "throw" }) };
}

async function api(path: string, body: unknown): Promise<Response> {
  return fetch(`${served.baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-stack-access-type": "client",
      "x-stack-project-id": dev.id,
      "x-stack-publishable-client-key": dev.keys.publishable_client_key,
    },
    body: JSON.stringify(body),
  });
}

describe("published @stackframe/js 2.8.108: strong auth against the fake provider", () => {
  it("MFA: signInWithMfa finishes a password sign-in with the attempt code and the current TOTP", async () => {
    const { client, user } = await signedUp("published-mfa@example.com");
    await user.update({ totpMultiFactorSecret: new TextEncoder().encode("published-totp-secret") });
    expect((await client.getUser({ or: "throw" })).isMultiFactorRequired).toBe(true);

    const refused = await api("/auth/password/sign-in", { email: "published-mfa@example.com", password: PASSWORD });
    // The request names x-stack-* headers, so the answer does too (never both families).
    expect(refused.headers.get("x-stack-known-error")).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    const attemptCode = ((await refused.json()) as { details: { attempt_code: string } }).details.attempt_code;
    const totp = (await controlClient({ baseUrl: served.baseUrl }).call("totp", { params: { user_id: user.id } })).code;

    const app = clientApp();
    const wrong = await app.signInWithMfa(totp === "000000" ? "111111" : "000000", attemptCode, { noRedirect: true });
    expect(wrong.status === "error" && wrong.error.errorCode).toBe("INVALID_TOTP_CODE");
    expect((await app.signInWithMfa(totp, attemptCode, { noRedirect: true })).status).toBe("ok");
    expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
  });

  it("CLI login: promptCliLogin polls until the browser completes it, then returns the refresh token", async () => {
    const { user } = await signedUp("published-cli@example.com");
    const { refreshToken } = await user.currentSession.getTokens();
    const completions: Promise<Response>[] = [];
    const result = await clientApp().promptCliLogin(
      cliOptions({
        appUrl: "https://app.example.com",
        waitTimeMillis: 10,
        maxAttempts: 100,
        promptLink: (url: string, loginCode: string) => {
          expect(url).toBe(`https://app.example.com/handler/cli-auth-confirm?login_code=${loginCode}`);
          completions.push(api("/auth/cli/complete", { login_code: loginCode, refresh_token: refreshToken }));
        },
      }),
    );
    expect((await completions[0]!).status).toBe(200);
    expect(result).toEqual({ status: "ok", data: refreshToken });
  });

  it("CLI login: gives up after maxAttempts with the timeout message", async () => {
    const result = await clientApp().promptCliLogin(
      cliOptions({ appUrl: "https://app.example.com", waitTimeMillis: 5, maxAttempts: 2, promptLink: () => {} }),
    );
    expect(result.status === "error" && result.error.message).toContain("Timed out waiting for CLI authentication.");
  });

  it("OAuth provider links: server create (a taken sign-in id is an error result), client list, update and delete", async () => {
    const server = serverApp();
    const { client, user } = await signedUp("published-links@example.com");
    const other = await signedUp("published-links-2@example.com");
    const options = {
      providerConfigId: "google",
      accountId: "published-g-1",
      email: "g@example.com",
      allowSignIn: true,
      allowConnectedAccounts: true,
    };
    const created = await server.createOAuthProvider({ ...options, userId: user.id });
    expect(created.status).toBe("ok");
    const taken = await server.createOAuthProvider({ ...options, userId: other.user.id });
    expect(taken.status === "error" && taken.error.errorCode).toBe(
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
    );

    const me = await client.getUser({ or: "throw" });
    const providers = await me.listOAuthProviders();
    expect(providers.map((p) => [p.type, p.userId, p.allowSignIn, p.allowConnectedAccounts])).toEqual([
      ["google", user.id, true, true],
    ]);
    expect((await providers[0]!.update({ allowSignIn: false })).status).toBe("ok");
    expect((await me.listOAuthProviders())[0]!.allowSignIn).toBe(false);

    const [connection] = await me.listConnectedAccounts();
    expect(connection).toMatchObject({ provider: "google", providerAccountId: "published-g-1" });
    const token = await connection!.getAccessToken();
    expect(token.status === "ok" && token.data.accessToken).toMatch(/^mock_google_at_/);
    const scoped = await connection!.getAccessToken({ scopes: ["calendar"] });
    expect(scoped.status === "error" && scoped.error.errorCode).toBe("OAUTH_ACCESS_TOKEN_NOT_AVAILABLE");

    await (await me.listOAuthProviders())[0]!.delete();
    expect(await me.listOAuthProviders()).toEqual([]);
  });

  it.skip(`signInWithOAuth / callOAuthCallback (skipped: ${BROWSER_REASON})`, () => {});
  it.skip(`registerPasskey / signInWithPasskey (skipped: ${BROWSER_REASON})`, () => {});
});
