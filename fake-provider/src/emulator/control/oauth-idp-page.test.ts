import { describe, expect, it } from "vitest";
import { api, expectJson, newProvider, request, type TestProvider } from "../../test-support/api.ts";
import {
  APP_CALLBACK,
  answerIdp,
  callback,
  oauthSignIn,
  pkcePair,
  startOAuth,
  withToken,
} from "../../test-support/strong-auth.ts";
import { accountForEmail } from "../../domain/ops/oauth/mock-identities.ts";

/** The mock identity provider's page (emulator/control/oauth-idp-page.ts): prefilled, one-click accounts, deny and errors. */

async function openPage(
  provider: TestProvider,
  query = "",
): Promise<{ html: string; location: string; cookie: string }> {
  const { challenge } = await pkcePair();
  const start = await startOAuth(provider, { challenge });
  const url = new URL(start.location);
  const page = await request(provider, `${url.pathname}${url.search}${query}`);
  expect(page.status).toBe(200);
  return { html: await page.text(), location: start.location, cookie: start.cookie };
}

const fieldValue = (html: string, name: string) =>
  new RegExp(`<input (?:id="[^"]*" )?name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1];

describe("the mock identity provider's page", () => {
  it("comes with every field filled with a generated account, the address's own id and name, and the provider's mark", async () => {
    const provider = newProvider();
    const { html } = await openPage(provider);
    const email = fieldValue(html, "email")!;
    expect(email).toMatch(/^[a-z]+\.[a-z]+@example\.com$/);
    const account = accountForEmail("github", email);
    expect([fieldValue(html, "name"), fieldValue(html, "account_id")]).toEqual([account.name, account.accountId]);
    expect(html).toMatch(/<div class="brand"><svg viewBox="0 0 24 24"[^>]*aria-hidden="true"[^>]*><path d="M12 \.5C/);
    expect(html).not.toMatch(/<script|https?:\/\/(?!localhost)/);
  });

  it("fills the account an address stands for when asked (?email=), the same every time", async () => {
    const provider = newProvider();
    const { html } = await openPage(provider, "&email=grace.hopper%40example.com");
    const grace = accountForEmail("github", "grace.hopper@example.com");
    expect([fieldValue(html, "email"), fieldValue(html, "name"), fieldValue(html, "account_id")]).toEqual([
      grace.email,
      "Grace Hopper",
      grace.accountId,
    ]);
  });

  it("signs in with the account the email stands for when the account id is left empty", async () => {
    const provider = newProvider();
    const tokens = await oauthSignIn(provider, { account_id: "", email: "lin.wang@example.com" });
    const me = await expectJson<{ oauth_providers: { id: string; account_id: string }[] }>(
      await api(provider, "/users/me", { headers: withToken(tokens.access_token) }),
    );
    expect(me.oauth_providers).toEqual([
      expect.objectContaining({
        id: "github",
        account_id: accountForEmail("github", "lin.wang@example.com").accountId,
      }),
    ]);
  });

  it("lists accounts used before as one-click forms, with the name their user has", async () => {
    const provider = newProvider();
    await oauthSignIn(provider, { account_id: "4242", email: "ada@example.com", name: "Ada Lovelace" });
    const { html } = await openPage(provider);
    expect(html).toContain('aria-label="Accounts used before"');
    expect(html).toContain('aria-label="Continue as ada@example.com"');
    expect(html).toMatch(/name="account_id" value="4242">/);
    expect(html).toContain("<strong>Ada Lovelace</strong>");
    // The fresh suggestion is never an address already listed.
    expect(fieldValue(html, "email")).not.toBe("ada@example.com");
  });

  it.each([
    [
      "temporarily_unavailable",
      "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE",
      "The OAuth provider is temporarily unavailable. Please try again later.",
    ],
    [
      "server_error",
      "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE",
      "The OAuth provider is temporarily unavailable. Please try again later.",
    ],
    ["consent_required", "OAUTH_PROVIDER_ACCESS_DENIED", "The OAuth provider denied access to the user."],
  ])(
    "answers the error %s as a provider would, and the callback sends %s to the app's callback page",
    async (error, code, message) => {
      const provider = newProvider();
      const { challenge } = await pkcePair();
      const start = await startOAuth(provider, { challenge });
      const back = await answerIdp(provider, start.location, { action: "error", error });
      expect(new URL(back).searchParams.get("error")).toBe(error);
      const landed = await callback(provider, back, start.cookie);
      expect(landed.status).toBe(307);
      const to = new URL(landed.headers.get("location")!);
      expect(`${to.origin}${to.pathname}`).toBe(APP_CALLBACK);
      expect([to.searchParams.get("errorCode"), to.searchParams.get("message")]).toEqual([code, message]);
    },
  );

  it("refuses an error the page does not offer with its own 400 page", async () => {
    const provider = newProvider();
    const { location } = await openPage(provider);
    const url = new URL(location);
    const form = new URLSearchParams({ state: url.searchParams.get("state")!, action: "error", error: "teapot" });
    const answer = await request(provider, `${url.pathname}${url.search}`, {
      method: "POST",
      body: form.toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("The error must be one the page offers, not &quot;teapot&quot;.");
  });
});
