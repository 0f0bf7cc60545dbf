import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Handler } from "../handler/handler.tsx";
import { createTestApp, existingUser, PASSWORD, renderWithApp, uniqueEmail } from "../test-support/render-app.tsx";

/**
 * The pages opened from emailed links (spec §2, §4): forgot password and password reset, email verification, and the
 * magic link callback, each driven through the SDK call it makes against the in-process fake.
 */
afterEach(cleanup);

const linkPath = (link: string | null) => {
  const url = new URL(link ?? "");
  return `${url.pathname}${url.search}`;
};

describe("forgot password and password reset", () => {
  it("resets the password through the emailed link", async () => {
    const t = createTestApp();
    const email = await existingUser(t);
    await renderWithApp(t, <Handler location="/handler/forgot-password" />);
    fireEvent.change(screen.getByLabelText(/^email$/i), { target: { value: email } });
    fireEvent.click(screen.getByRole("button", { name: /send reset link/i }));
    expect((await screen.findByRole("status")).textContent).toMatch(/reset link is on its way/);
    const mail = await t.provider.outbox.waitFor({ to: email, kind: "password_reset" });
    expect(new URL(mail.link ?? "").pathname).toBe("/handler/password-reset");
    cleanup();

    await renderWithApp(t, <Handler location={linkPath(mail.link)} />);
    fireEvent.change(screen.getByLabelText(/^new password$/i), { target: { value: "a brand new secret" } });
    fireEvent.change(screen.getByLabelText(/repeat password/i), { target: { value: "a brand new secret" } });
    fireEvent.click(screen.getByRole("button", { name: /set password/i }));
    expect((await screen.findByRole("status")).textContent).toBe("Your password has been changed.");
    const signIn = await t.otherApp().signInWithCredential({ email, password: "a brand new secret", noRedirect: true });
    expect(signIn.status).toBe("ok");
  });

  it("shows the verification code error for a used or unknown code", async () => {
    const t = createTestApp();
    await renderWithApp(t, <Handler location="/handler/password-reset?code=not-a-real-code" />);
    fireEvent.change(screen.getByLabelText(/^new password$/i), { target: { value: "whatever it is" } });
    fireEvent.change(screen.getByLabelText(/repeat password/i), { target: { value: "whatever it is" } });
    fireEvent.click(screen.getByRole("button", { name: /set password/i }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The verification code does not exist for this project.",
    );
  });

  it("links the sign-in page to the forgot-password page when passwords are on", async () => {
    const t = createTestApp();
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    expect(screen.getByRole("link", { name: "Forgot your password?" }).getAttribute("href")).toBe(
      "/handler/forgot-password",
    );
  });
});

describe("email verification", () => {
  it("verifies the address with the code of the sign-up email", async () => {
    const t = createTestApp();
    const email = uniqueEmail();
    await t.app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
    const mail = await t.provider.outbox.waitFor({ to: email, kind: "email_verification" });
    await renderWithApp(t, <Handler location={linkPath(mail.link)} />);
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Your email is verified."));
    expect((await t.app.getUser())?.primaryEmailVerified).toBe(true);
  });
});

describe("magic link callback", () => {
  it("signs in with the link's code: a new user goes to afterSignUp, a returning one to afterSignIn (spec §4)", async () => {
    const t = createTestApp({ urls: { afterSignUp: "/welcome" } });
    const email = uniqueEmail();
    const callbackUrl = "http://localhost:3000/handler/magic-link-callback";
    const openLink = async () => {
      const mail = await t.provider.outbox.waitFor({ to: email, kind: "magic_link" });
      await t.provider.outbox.clear();
      await renderWithApp(t, <Handler location={linkPath(mail.link)} />);
    };
    expect((await t.app.sendMagicLinkEmail(email, { callbackUrl })).status).toBe("ok");
    await openLink();
    await waitFor(() => expect(t.navigations).toEqual(["/welcome"]));
    expect((await t.app.getUser())?.primaryEmail).toBe(email);
    cleanup();
    await t.app.signOut();
    t.navigations.length = 0;
    expect((await t.app.sendMagicLinkEmail(email, { callbackUrl })).status).toBe("ok");
    await openLink();
    await waitFor(() => expect(t.navigations).toEqual(["/"]));
  });

  it("says the link is incomplete without a code", async () => {
    const t = createTestApp();
    await renderWithApp(t, <Handler location="/handler/magic-link-callback" />);
    expect(screen.getByRole("alert").textContent).toMatch(/incomplete/);
  });
});
