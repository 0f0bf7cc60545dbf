import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Handler } from "../handler/handler.tsx";
import { configureProject } from "../test-support/project-config.ts";
import { createTestApp, PASSWORD, renderWithApp, uniqueEmail } from "../test-support/render-app.tsx";
import { resetPage, softwareWebAuthn, visit } from "../test-support/strong-auth.ts";

/** The sign-in and sign-up pages' other ways in (spec §1, §3 project config): emailed code, passkey, only if enabled. */
afterEach(() => {
  cleanup();
  resetPage();
});

const pathOf = (link: string | null) => {
  const url = new URL(link ?? "");
  return `${url.pathname}${url.search}`;
};

describe("sign-in with an emailed code", () => {
  it("sends the email, then signs a new user up with the typed code (afterSignUp)", async () => {
    const t = createTestApp({ urls: { afterSignIn: "/signed-in", afterSignUp: "/welcome" } });
    const email = uniqueEmail("otp");
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    fireEvent.click(screen.getByRole("button", { name: "Email me a code instead" }));
    expect(screen.queryByLabelText("Password")).toBeNull();
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: email } });
    fireEvent.click(screen.getByRole("button", { name: "Send sign-in code" }));
    expect((await screen.findByText(/^Check your inbox/)).textContent).toBe(
      `Check your inbox: we sent a sign-in link and code to ${email}.`,
    );
    const mail = await t.provider.outbox.waitFor({ to: email, kind: "magic_link" });
    fireEvent.change(screen.getByLabelText("Sign-in code"), { target: { value: mail.otp } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in with code" }));
    await waitFor(() => expect(t.navigations).toEqual(["/welcome"]));
    expect((await t.app.getUser())?.primaryEmail).toBe(email);
  });

  it("shows the known error of an address that has an unverified account", async () => {
    const t = createTestApp();
    const email = uniqueEmail("taken");
    await t
      .otherApp()
      .signUpWithCredential({ email, password: PASSWORD, noRedirect: true, noVerificationCallback: true });
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    fireEvent.click(screen.getByRole("button", { name: "Email me a code instead" }));
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: email } });
    fireEvent.click(screen.getByRole("button", { name: "Send sign-in code" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/already exists but the email is not verified/);
  });

  it("shows the verification error for a wrong code", async () => {
    const t = createTestApp();
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    fireEvent.click(screen.getByRole("button", { name: "Email me a code instead" }));
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: uniqueEmail("otp") } });
    fireEvent.click(screen.getByRole("button", { name: "Send sign-in code" }));
    fireEvent.change(await screen.findByLabelText("Sign-in code"), { target: { value: "ZZZZZZ" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in with code" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The verification code does not exist for this project.",
    );
  });

  it("puts after_auth_return_to on the emailed link, and the callback page returns there, new user or not (spec §2)", async () => {
    const t = createTestApp({ urls: { afterSignUp: "/welcome" } });
    const email = uniqueEmail("otp");
    await renderWithApp(t, <Handler location="/handler/sign-in?after_auth_return_to=%2Fprotected" />);
    fireEvent.click(screen.getByRole("button", { name: "Email me a code instead" }));
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: email } });
    fireEvent.click(screen.getByRole("button", { name: "Send sign-in code" }));
    await screen.findByText(/^Check your inbox/);
    const mail = await t.provider.outbox.waitFor({ to: email, kind: "magic_link" });
    const link = pathOf(mail.link);
    expect(link).toMatch(/^\/handler\/magic-link-callback\?after_auth_return_to=%2Fprotected&code=/);
    cleanup();
    await renderWithApp(t, <Handler location={link} />);
    await waitFor(() => expect(t.navigations).toEqual(["/protected"]));
  });
});

describe("sign-in with a passkey", () => {
  it("signs in with a passkey registered before (afterSignIn), and shows why an unknown one fails", async () => {
    const t0 = createTestApp();
    const { webAuthn, authenticator } = softwareWebAuthn();
    const owner = t0.otherApp({ webAuthn });
    const email = uniqueEmail("passkey");
    await owner.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, noVerificationCallback: true });
    expect((await (await owner.getUser({ or: "throw" })).registerPasskey()).status).toBe("ok");

    const t = createTestApp({ webAuthn, urls: { afterSignIn: "/signed-in" } }, t0.provider);
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    fireEvent.click(screen.getByRole("button", { name: "Continue with a passkey" }));
    await waitFor(() => expect(t.navigations).toEqual(["/signed-in"]));
    expect((await t.app.getUser())?.primaryEmail).toBe(email);
    expect(authenticator.list()[0]?.signCount).toBe(1);
    cleanup();

    const stranger = createTestApp({ webAuthn: softwareWebAuthn().webAuthn }, t0.provider);
    visit("/handler/sign-in");
    await renderWithApp(stranger, <Handler />);
    fireEvent.click(screen.getByRole("button", { name: "Continue with a passkey" }));
    // The authenticator has no credential for this site: the browser's refusal (PASSKEY_WEBAUTHN_ERROR), in its words.
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The operation either timed out or was not allowed (no credential for this RP ID)",
    );
    expect(stranger.navigations).toEqual([]);
  });
});

describe("only what the project enables", () => {
  it("shows no provider, passkey or code option when they are off", async () => {
    const t = createTestApp();
    await configureProject(t, { magicLinkEnabled: false, passkeyEnabled: false, oauthProviders: [] });
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    expect(screen.getAllByRole("button").map((b) => b.textContent)).toEqual(["Sign in"]);
  });

  it("offers the emailed code alone without passwords, and no sign-up without sign-up", async () => {
    const t = createTestApp();
    await configureProject(t, {
      credentialEnabled: false,
      signUpEnabled: false,
      passkeyEnabled: false,
      oauthProviders: [],
    });
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    expect(screen.getAllByRole("button").map((b) => b.textContent)).toEqual(["Send sign-in code"]);
    expect(screen.queryByRole("link", { name: "Create an account" })).toBeNull();
    expect(screen.queryByRole("link", { name: "Forgot your password?" })).toBeNull();
    cleanup();
    await renderWithApp(t, <Handler location="/handler/sign-up" />);
    expect(screen.getByRole("alert").textContent).toBe("Sign-up is not enabled for this project.");
  });
});
