import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CONTROL_PREFIX } from "@authsim/fake-provider";
import { base32Decode, totpCode, verifyTotpCode, type StackClientAppOptions } from "@authsim/sdk";
import { Handler } from "../handler/handler.tsx";
import { configureProject } from "../test-support/project-config.ts";
import { openPage } from "../test-support/settings-pages.ts";
import { createTestApp, PASSWORD, renderWithApp, uniqueEmail, type TestApp } from "../test-support/render-app.tsx";
import { passIdentityProvider, providerTotp, resetPage, softwareWebAuthn, visit } from "../test-support/strong-auth.ts";

/** Account settings' strong-auth sections: two-factor authentication, passkeys, connected accounts, notifications. */
afterEach(() => {
  cleanup();
  resetPage();
});

const SETTINGS = "/handler/account-settings";

/** Account settings of a new user, on the page of the side menu named `page` (two-factor, passkeys, links are one). */
async function openSettings(options: Partial<StackClientAppOptions> = {}, page = "Emails & sign-in"): Promise<TestApp> {
  const t = createTestApp(options);
  await t.app.signUpWithCredential({
    email: uniqueEmail("settings"),
    password: PASSWORD,
    noRedirect: true,
    noVerificationCallback: true,
  });
  visit(SETTINGS);
  await renderWithApp(t, <Handler />);
  await screen.findByRole("heading", { name: "Account settings" });
  await openPage(page);
  return t;
}

const section = (name: string) => within(screen.getByRole("heading", { name }).closest("section")!);

describe("two-factor authentication", () => {
  it("shows a secret and its otpauth URI, refuses a wrong code, turns on with the right one, and off again", async () => {
    const t = await openSettings();
    fireEvent.click(screen.getByRole("button", { name: "Set up two-factor authentication" }));
    const secret = (screen.getByLabelText("Secret key") as HTMLInputElement).value;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const link = new URL((screen.getByLabelText("Setup link") as HTMLInputElement).value);
    expect(link.href).toMatch(/^otpauth:\/\/totp\/authsim%20dev%20project:settings-\d+%40example\.com\?/);
    expect(link.searchParams.get("secret")).toBe(secret);

    const right = await totpCode(base32Decode(secret), t.provider.clock.now());
    fireEvent.change(screen.getByLabelText("Authentication code"), {
      target: { value: right === "000000" ? "111111" : "000000" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Verify and turn on" }));
    expect((await screen.findByRole("alert")).textContent).toBe("The TOTP code is invalid. Please try again.");
    expect((await t.app.getUser({ or: "throw" })).isMultiFactorRequired).toBe(false);

    fireEvent.change(screen.getByLabelText("Authentication code"), { target: { value: right } });
    fireEvent.click(screen.getByRole("button", { name: "Verify and turn on" }));
    await waitFor(() =>
      expect(section("Two-factor authentication").getByRole("status").textContent).toBe(
        "Two-factor authentication is on.",
      ),
    );
    const user = await t.app.getUser({ or: "throw" });
    expect(user.isMultiFactorRequired).toBe(true);
    // The provider holds the same secret: its code now is one the setup accepts.
    expect(await verifyTotpCode(base32Decode(secret), await providerTotp(t, user.id), t.provider.clock.now())).toBe(
      true,
    );

    fireEvent.click(screen.getByRole("button", { name: "Turn off two-factor authentication" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Set up two-factor authentication" })).toBeTruthy());
    expect((await t.app.getUser({ or: "throw" })).isMultiFactorRequired).toBe(false);
  });
});

describe("passkeys", () => {
  it("registers a passkey through the SDK's WebAuthn adapter, then turns passkey sign-in off", async () => {
    const { webAuthn, authenticator } = softwareWebAuthn();
    const t = await openSettings({ webAuthn });
    const passkeys = section("Passkeys");
    expect(passkeys.getByText("Passkey sign-in is off for your account.")).toBeTruthy();
    fireEvent.click(passkeys.getByRole("button", { name: "Add a passkey" }));
    expect((await passkeys.findByRole("status")).textContent).toBe("Passkey added. You can sign in with it now.");
    expect(authenticator.list()).toEqual([expect.objectContaining({ rpId: "localhost" })]);
    await waitFor(() => expect(passkeys.getByText("Passkey sign-in is on for your account.")).toBeTruthy());
    fireEvent.click(passkeys.getByRole("button", { name: "Turn off passkey sign-in" }));
    await waitFor(() => expect(passkeys.getByText("Passkey sign-in is off for your account.")).toBeTruthy());
    expect((await t.app.getUser({ or: "throw" })).passkeyAuthEnabled).toBe(false);
  });

  it("is not shown where the project has passkeys off", async () => {
    const t = createTestApp();
    await configureProject(t, { passkeyEnabled: false });
    await t.app.signUpWithCredential({
      email: uniqueEmail(),
      password: PASSWORD,
      noRedirect: true,
      noVerificationCallback: true,
    });
    await renderWithApp(t, <Handler location={`${SETTINGS}#sign-in`} />);
    await screen.findByRole("heading", { name: "Emails" });
    expect(screen.queryByRole("heading", { name: "Passkeys" })).toBeNull();
  });
});

describe("connected accounts", () => {
  it("links a Google account through the provider, lists it, and disconnects it", async () => {
    const t = await openSettings();
    const accounts = section("Connected accounts");
    expect(accounts.getByText("No account is connected.")).toBeTruthy();
    fireEvent.click(accounts.getByRole("button", { name: "Connect Google" }));
    await waitFor(() => expect(t.navigations.at(-1)).toContain(`${CONTROL_PREFIX}/oauth/authorize/google`));
    const back = await passIdentityProvider(t, t.navigations.at(-1)!, {
      account_id: "g-1",
      email: "ada@gmail.example",
    });
    cleanup();

    visit(back);
    await renderWithApp(t, <Handler />);
    // The link flow comes back to the page it started on, on the same page of the side menu.
    await waitFor(() => expect(t.navigations.at(-1)).toBe(`http://localhost:3000${SETTINGS}#sign-in`));
    cleanup();
    visit(`${SETTINGS}#sign-in`);
    await renderWithApp(t, <Handler />);
    const list = within(await screen.findByRole("list", { name: "Connected accounts" }));
    await waitFor(() => expect(list.getByText(/^Google \(ada@gmail\.example\)/)).toBeTruthy());
    expect(section("Connected accounts").queryByRole("button", { name: "Connect Google" })).toBeNull();
    expect(section("Connected accounts").getByRole("button", { name: "Connect GitHub" })).toBeTruthy();
    fireEvent.click(list.getByRole("button", { name: "Disconnect Google" }));
    await waitFor(() => expect(list.queryByText(/^Google/)).toBeNull());
  });
});

describe("notification categories", () => {
  it("turns a category off; one that cannot be disabled stays on", async () => {
    const t = await openSettings({}, "Notifications");
    const marketing = (await screen.findByLabelText("Marketing")) as HTMLInputElement;
    const transactional = screen.getByLabelText("Transactional (always sent)") as HTMLInputElement;
    expect([marketing.checked, transactional.checked, transactional.disabled]).toEqual([true, true, true]);
    await act(async () => fireEvent.click(marketing));
    await waitFor(async () => {
      const categories = await (await t.app.getUser({ or: "throw" })).listNotificationCategories();
      expect(categories.find((c) => c.name === "Marketing")?.enabled).toBe(false);
    });
    expect(marketing.checked).toBe(false);
  });
});
