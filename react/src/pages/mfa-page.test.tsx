import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Handler } from "../handler/handler.tsx";
import { createTestApp, PASSWORD, renderWithApp, uniqueEmail, type TestApp } from "../test-support/render-app.tsx";
import { providerTotp, resetPage, visit } from "../test-support/strong-auth.ts";

/** The mfa page after a password sign-in that needs a TOTP code (spec §2 "mfa", §4 "MFA", §8 INVALID_TOTP_CODE). */
afterEach(() => {
  cleanup();
  resetPage();
});

/** A user with TOTP on, made through another app so this one stays signed out. */
async function mfaUser(t: TestApp): Promise<{ email: string; userId: string }> {
  const other = t.otherApp();
  const email = uniqueEmail("mfa");
  await other.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, noVerificationCallback: true });
  const user = await other.getUser({ or: "throw" });
  await user.update({ totpMultiFactorSecret: new TextEncoder().encode("authsim-totp-secret!") });
  return { email, userId: user.id };
}

async function signInNeedingMfa(t: TestApp, email: string, path: string): Promise<string> {
  visit(path);
  await renderWithApp(t, <Handler />);
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: email } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: PASSWORD } });
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
  await waitFor(() => expect(t.navigations).toHaveLength(1));
  expect(screen.getByRole("status").textContent).toBe("Two-factor authentication is required. Redirecting…");
  expect(screen.queryByRole("alert")).toBeNull();
  cleanup();
  return t.navigations[0]!;
}

async function enterCode(code: string) {
  fireEvent.change(screen.getByLabelText("Authentication code"), { target: { value: code } });
  fireEvent.click(screen.getByRole("button", { name: "Verify code" }));
}

describe("the mfa page", () => {
  it("shows INVALID_TOTP_CODE for a wrong code, then signs in with the right one and returns to after_auth_return_to", async () => {
    const t = createTestApp();
    const { email, userId } = await mfaUser(t);
    const mfaUrl = await signInNeedingMfa(t, email, "/handler/sign-in?after_auth_return_to=%2Fprotected");
    expect(mfaUrl).toBe("/handler/mfa?after_auth_return_to=%2Fprotected");
    visit(mfaUrl);
    await renderWithApp(t, <Handler />);
    const right = await providerTotp(t, userId);
    await enterCode(right === "000000" ? "111111" : "000000");
    expect((await screen.findByRole("alert")).textContent).toBe("The TOTP code is invalid. Please try again.");
    expect(await t.app.getUser()).toBeNull();
    await enterCode(right);
    await waitFor(() => expect(t.navigations.at(-1)).toBe("/protected"));
    expect((await t.app.getUser())?.id).toBe(userId);
    expect(t.app.getPendingMfaAttemptCode()).toBeNull();
  });

  it("goes to afterSignIn without a return address", async () => {
    const t = createTestApp({ urls: { afterSignIn: "/signed-in" } });
    const { email, userId } = await mfaUser(t);
    visit(await signInNeedingMfa(t, email, "/handler/sign-in"));
    await renderWithApp(t, <Handler />);
    await enterCode(await providerTotp(t, userId));
    await waitFor(() => expect(t.navigations.at(-1)).toBe("/signed-in"));
  });

  it("says there is nothing to verify without a pending sign-in", async () => {
    const t = createTestApp();
    await renderWithApp(t, <Handler location="/handler/mfa" />);
    expect(screen.getByRole("alert").textContent).toBe(
      "There is no sign-in waiting for a code in this browser. Please sign in again.",
    );
    expect(screen.queryByLabelText("Authentication code")).toBeNull();
  });
});
