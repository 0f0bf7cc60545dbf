import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CONTROL_PREFIX } from "@authsim/fake-provider";
import { Handler } from "../handler/handler.tsx";
import { createTestApp, renderWithApp, type TestApp } from "../test-support/render-app.tsx";
import {
  PAGE_ORIGIN,
  passIdentityProvider,
  providerTotp,
  resetPage,
  visit,
  type Identity,
} from "../test-support/strong-auth.ts";

/**
 * OAuth from the sign-in page's provider buttons through the emulator's mock identity provider to the oauth-callback
 * page (spec §2, §4, §5), all in process: the SDK keeps its PKCE cookie in happy-dom's document.
 */
afterEach(() => {
  cleanup();
  resetPage();
});

let accounts = 0;
const account = (): Identity => {
  accounts += 1;
  return { account_id: `gh-${accounts}`, email: `octo-${accounts}@example.com`, name: `Octo ${accounts}` };
};

/** Clicks "Continue with GitHub" on the page at `path` and passes the identity provider: the callback URL. */
async function throughProvider(t: TestApp, path: string, identity: Identity): Promise<string> {
  visit(path);
  await renderWithApp(t, <Handler />);
  fireEvent.click(screen.getByRole("button", { name: "Continue with GitHub" }));
  await waitFor(() => expect(t.navigations.at(-1)).toContain(`${CONTROL_PREFIX}/oauth/authorize/github`));
  const back = await passIdentityProvider(t, t.navigations.at(-1)!, identity);
  cleanup();
  return back;
}

async function openCallback(t: TestApp, url: string): Promise<void> {
  visit(url);
  await renderWithApp(t, <Handler />);
}

describe("OAuth sign-in through the oauth-callback page", () => {
  it("offers a button per enabled provider, named for people", async () => {
    const t = createTestApp();
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    const group = screen.getByRole("group", { name: "Sign in with another account" });
    expect([...group.querySelectorAll("button")].map((b) => b.textContent)).toEqual([
      "Continue with GitHub",
      "Continue with Google",
    ]);
  });

  it("sends a new user to afterSignUp and a returning one to afterSignIn; a replayed callback is refused", async () => {
    const t = createTestApp({ urls: { afterSignIn: "/signed-in", afterSignUp: "/welcome" } });
    const identity = account();
    const callback = await throughProvider(t, "/handler/sign-in", identity);
    expect(new URL(callback).pathname).toBe("/handler/oauth-callback");
    await openCallback(t, callback);
    await waitFor(() => expect(t.navigations.at(-1)).toBe("/welcome"));
    expect(screen.getByRole("status").textContent).toBe("Signed in. Redirecting…");
    expect((await t.app.getUser())?.primaryEmail).toBe(identity.email);
    // The SDK removed code and state from the address (spec §5).
    expect(window.location.search).toBe("");
    cleanup();

    await t.app.signOut({ redirectUrl: "/bye" });
    const again = await throughProvider(t, "/handler/sign-in", identity);
    await openCallback(t, again);
    await waitFor(() => expect(t.navigations.at(-1)).toBe("/signed-in"));
    cleanup();

    // The same callback URL a second time: its cookie is gone, so the SDK ignores it (with a console warning).
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await openCallback(t, again);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/not its cookie/));
    warn.mockRestore();
    expect((await screen.findByRole("alert")).textContent).toMatch(/^This sign-in could not be finished/);
    expect(screen.getByRole("link", { name: "Back to sign in" }).getAttribute("href")).toBe("/handler/sign-in");
  });

  it("sends a user with TOTP on to the mfa page (spec §4)", async () => {
    const t = createTestApp();
    const identity = account();
    await openCallback(t, await throughProvider(t, "/handler/sign-in", identity));
    await waitFor(() => expect(t.navigations.at(-1)).toBe("/"));
    cleanup();
    await (
      await t.app.getUser({ or: "throw" })
    ).update({ totpMultiFactorSecret: new TextEncoder().encode("authsim-totp-secret!") });
    await t.app.signOut({ redirectUrl: "/bye" });
    await openCallback(t, await throughProvider(t, "/handler/sign-in", identity));
    await waitFor(() => expect(t.navigations.at(-1)).toBe("/handler/mfa"));
    expect(screen.getByRole("status").textContent).toBe("Two-factor authentication is required. Redirecting…");
    expect(t.app.getPendingMfaAttemptCode()).not.toBeNull();
  });

  it("returns to after_auth_return_to of the sign-in page (spec §2)", async () => {
    const t = createTestApp();
    const callback = await throughProvider(
      t,
      "/handler/sign-in?after_auth_return_to=%2Fprotected%3Ftab%3D2",
      account(),
    );
    await openCallback(t, callback);
    await waitFor(() => expect(t.navigations.at(-1)).toBe(`${PAGE_ORIGIN}/protected?tab=2`));
  });

  it("keeps after_auth_return_to through MFA: sign-in, provider, mfa page, then the return address (spec §2, §4)", async () => {
    const t = createTestApp({ urls: { afterSignIn: "/signed-in", afterSignUp: "/welcome" } });
    const identity = account();
    await openCallback(t, await throughProvider(t, "/handler/sign-in", identity));
    await waitFor(() => expect(t.navigations.at(-1)).toBe("/welcome"));
    cleanup();
    const user = await t.app.getUser({ or: "throw" });
    await user.update({ totpMultiFactorSecret: new TextEncoder().encode("authsim-totp-secret!") });
    await t.app.signOut({ redirectUrl: "/bye" });

    await openCallback(
      t,
      await throughProvider(t, "/handler/sign-in?after_auth_return_to=%2Fprotected%3Ftab%3D2", identity),
    );
    const returnTo = `${PAGE_ORIGIN}/protected?tab=2`;
    // The exchange answered only an attempt code; the SDK put the address it kept for this flow on the mfa URL.
    await waitFor(() =>
      expect(t.navigations.at(-1)).toBe(`/handler/mfa?after_auth_return_to=${encodeURIComponent(returnTo)}`),
    );
    cleanup();
    visit(t.navigations.at(-1)!);
    await renderWithApp(t, <Handler />);
    fireEvent.change(await screen.findByLabelText("Authentication code"), {
      target: { value: await providerTotp(t, user.id) },
    });
    fireEvent.click(screen.getByRole("button", { name: "Verify code" }));
    await waitFor(() => expect(t.navigations.at(-1)).toBe(returnTo));
    expect((await t.app.getUser())?.id).toBe(user.id);
  });

  it("refuses an untrusted after_auth_return_to before leaving for the provider", async () => {
    const t = createTestApp();
    visit("/handler/sign-in?after_auth_return_to=https%3A%2F%2Fevil.example%2Fsteal");
    await renderWithApp(t, <Handler />);
    fireEvent.click(screen.getByRole("button", { name: "Continue with Google" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(
      /^Refusing to redirect to https:\/\/evil\.example\/steal/,
    );
    expect(t.navigations).toEqual([]);
  });

  it("says so when code or state is missing, without calling the provider", async () => {
    const t = createTestApp();
    await renderWithApp(t, <Handler location="/handler/oauth-callback?code=abc" />);
    expect(screen.getByRole("alert").textContent).toMatch(/needs the code and state/);
    expect(t.navigations).toEqual([]);
  });

  it("brings a denial at the provider back to this page, which shows the catalogue's message", async () => {
    const t = createTestApp();
    const back = await throughProvider(t, "/handler/sign-in", { ...account(), action: "deny" });
    // The service sends a refusal to the app's own callback URL when it is trusted, as this one is.
    expect([new URL(back).pathname, new URL(back).searchParams.get("errorCode")]).toEqual([
      "/handler/oauth-callback",
      "OAUTH_PROVIDER_ACCESS_DENIED",
    ]);
    await openCallback(t, back);
    expect(screen.getByRole("alert").textContent).toBe("The OAuth provider denied access to the user.");
  });

  it("shows a known error of the exchange: the flow timed out (OUTER_OAUTH_TIMEOUT)", async () => {
    const t = createTestApp();
    visit("/handler/sign-in");
    await renderWithApp(t, <Handler />);
    fireEvent.click(screen.getByRole("button", { name: "Continue with GitHub" }));
    await waitFor(() => expect(t.navigations).toHaveLength(1));
    cleanup();
    t.provider.clock.advance(3_600_000);
    await openCallback(t, await passIdentityProvider(t, t.navigations[0]!, account()));
    expect((await screen.findByRole("alert")).textContent).toBe("The OAuth flow has timed out. Please sign in again.");
  });
});
