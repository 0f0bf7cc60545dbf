import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { UserButton } from "../components/user-button.tsx";
import { createTestApp, PASSWORD, renderWithApp, uniqueEmail, type TestApp } from "../test-support/render-app.tsx";
import { Handler } from "./handler.tsx";
import { pageForPath } from "./page-urls.ts";

afterEach(cleanup);

async function signedIn(t: TestApp, displayName?: string): Promise<string> {
  const email = uniqueEmail();
  await t.app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, noVerificationCallback: true });
  if (displayName) await (await t.app.getUser({ or: "throw" })).setDisplayName(displayName);
  return email;
}

describe("Handler routing", () => {
  it.each([
    ["/handler/sign-in", "Sign in"],
    ["/handler/sign-up", "Create an account"],
    ["/handler/error?message=Boom", "Something went wrong"],
    ["/handler/oauth-callback", "Signing in"],
    ["/handler/mfa", "Two-factor authentication"],
    ["/handler/nope", "Page not found"],
  ])("renders %s as the %s page", async (path, title) => {
    const t = createTestApp();
    await renderWithApp(t, <Handler location={path} />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(title);
  });

  it("follows a custom handler base path", async () => {
    const t = createTestApp({ urls: { handler: "/auth" } });
    expect(pageForPath(t.app, "/auth/sign-up")).toBe("signUp");
    expect(pageForPath(t.app, "/handler/sign-up")).toBeNull();
    expect(
      ["oauth-callback", "mfa", "team-invitation", "cli-auth-confirm"].map((p) => pageForPath(t.app, `/auth/${p}`)),
    ).toEqual(["oauthCallback", "mfa", "teamInvitation", "cliAuthConfirm"]);
    await renderWithApp(t, <Handler location="/auth/sign-in" />);
    expect(screen.getByRole("link", { name: /create an account/i }).getAttribute("href")).toBe("/auth/sign-up");
  });

  it("shows the error page's message, or the catalogue's message for a known code", async () => {
    const t = createTestApp();
    await renderWithApp(t, <Handler location="/handler/error?errorCode=OUTER_OAUTH_TIMEOUT" />);
    expect(screen.getByRole("alert").textContent).toBe("The OAuth flow has timed out. Please sign in again.");
  });
});

describe("account settings", () => {
  it("sends a signed-out visitor to sign-in with after_auth_return_to (spec §2: user required)", async () => {
    const t = createTestApp();
    await renderWithApp(t, <Handler location="http://localhost:3000/handler/account-settings" />);
    await waitFor(() =>
      expect(t.navigations).toEqual([
        `/handler/sign-in?after_auth_return_to=${encodeURIComponent("http://localhost:3000/handler/account-settings")}`,
      ]),
    );
    expect(screen.queryByRole("heading", { name: "Account settings" })).toBeNull();
  });

  it("renames the user, and every component reading the user shows the new name", async () => {
    const t = createTestApp();
    await signedIn(t, "Ada");
    await renderWithApp(
      t,
      <>
        <UserButton />
        <Handler location="/handler/account-settings" />
      </>,
    );
    expect(await screen.findByRole("heading", { name: "Account settings" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Ada" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/display name/i), { target: { value: "Ada Lovelace" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect((await screen.findByRole("status")).textContent).toBe("Saved.");
    await waitFor(() => expect(screen.getByRole("button", { name: "Ada Lovelace" })).toBeTruthy());
    expect((await t.app.getUser())?.displayName).toBe("Ada Lovelace");
  });

  it("deletes the account after a confirmation, where the project allows it", async () => {
    const t = createTestApp();
    await signedIn(t);
    await renderWithApp(t, <Handler location="/handler/account-settings#account" />);
    fireEvent.click(await screen.findByRole("button", { name: "Delete account" }));
    fireEvent.click(screen.getByRole("button", { name: "Yes, delete my account" }));
    await waitFor(() => expect(t.navigations[0]).toBe("/"));
    expect(await t.app.getUser()).toBeNull();
  });
});

describe("the sign-out page", () => {
  it("signs out once, clears the session and goes to afterSignOut", async () => {
    const t = createTestApp({ urls: { afterSignOut: "/bye" } });
    await signedIn(t);
    await renderWithApp(t, <Handler location="/handler/sign-out" />);
    await waitFor(() => expect(t.navigations).toEqual(["/bye"]));
    expect(await t.app.getRefreshToken()).toBeNull();
  });
});

describe("UserButton", () => {
  it("offers sign-in and sign-up when signed out", async () => {
    const t = createTestApp();
    await renderWithApp(t, <UserButton />);
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/handler/sign-in");
    expect(screen.getByRole("link", { name: "Sign up" }).getAttribute("href")).toBe("/handler/sign-up");
  });

  it("opens a menu with account settings and sign-out", async () => {
    const t = createTestApp();
    const email = await signedIn(t, "Grace");
    await renderWithApp(t, <UserButton />);
    const button = await screen.findByRole("button", { name: "Grace" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    await act(async () => fireEvent.click(button));
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByText(email)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Account settings" }).getAttribute("href")).toBe(
      "/handler/account-settings",
    );
    expect(screen.getByRole("link", { name: "Sign out" }).getAttribute("href")).toBe("/handler/sign-out");
  });
});
