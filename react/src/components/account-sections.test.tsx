import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { clientCachesSymbol } from "@authsim/sdk";
import { Handler } from "../handler/handler.tsx";
import { createTestApp, PASSWORD, renderWithApp, uniqueEmail, type TestApp } from "../test-support/render-app.tsx";

afterEach(cleanup);

async function openSettings(t: TestApp): Promise<string> {
  const email = uniqueEmail();
  await t.app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, noVerificationCallback: true });
  await renderWithApp(t, <Handler location="/handler/account-settings" />);
  await screen.findByRole("heading", { name: "Account settings" });
  return email;
}

const list = (name: string) => within(screen.getByRole("list", { name }));

describe("account settings sections", () => {
  it("adds an email, sends its verification email, and removes it", async () => {
    const t = createTestApp();
    const primary = await openSettings(t);
    await waitFor(() => expect(list("Email addresses").getByText(new RegExp(primary))).toBeTruthy());
    fireEvent.change(screen.getByLabelText("New email address"), { target: { value: "second@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Add email" }));
    const row = await waitFor(() => list("Email addresses").getByText(/second@example\.com/).closest("li")!);
    expect(row.textContent).toContain("(not verified)");
    fireEvent.click(within(row).getByRole("button", { name: "Send verification email" }));
    await waitFor(() => expect(within(row).getByRole("status").textContent).toBe("Verification email sent to second@example.com."));
    const mail = await t.provider.outbox.waitFor({ to: "second@example.com", kind: "email_verification" });
    expect(new URL(mail.link ?? "").pathname).toBe("/handler/email-verification");
    fireEvent.click(within(row).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(list("Email addresses").queryByText(/second@example\.com/)).toBeNull());
  });

  it("creates an API key, shows its value once and then its last four characters, and revokes it", async () => {
    const t = createTestApp();
    await openSettings(t);
    fireEvent.change(screen.getByLabelText("Key description"), { target: { value: "deploy bot" } });
    fireEvent.click(screen.getByRole("button", { name: "Create key" }));
    const value = await waitFor(() => screen.getByText(/copy it now/).querySelector("code")!.textContent!);
    await waitFor(() => expect(list("API keys").getByText(`deploy bot (…${value.slice(-4)})`, { exact: false })).toBeTruthy());
    fireEvent.click(list("API keys").getByRole("button", { name: "Revoke" }));
    await waitFor(() => expect(list("API keys").getByText(/\(revoked\)/)).toBeTruthy());
  });

  it("creates a team", async () => {
    const t = createTestApp();
    await openSettings(t);
    expect(screen.getByText("You are not in any team.")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Team name"), { target: { value: "Babbage & Co" } });
    fireEvent.click(screen.getByRole("button", { name: "Create team" }));
    await waitFor(() => expect(list("Teams").getByText("Babbage & Co")).toBeTruthy());
  });

  it("lists sessions and revokes another one, never the current one", async () => {
    const t = createTestApp();
    const email = await openSettings(t);
    await t.otherApp().signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    // The other sign-in is not a write of this app: tell its caches (within 5 s of a read they would keep the list).
    await act(async () => t.app[clientCachesSymbol]().refreshAll());
    await waitFor(() => expect(list("Active sessions").getAllByRole("listitem")).toHaveLength(2));
    const rows = list("Active sessions").getAllByRole("listitem");
    const current = rows.find((r) => r.textContent?.includes("(this session)"))!;
    expect(within(current).queryByRole("button", { name: "Revoke" })).toBeNull();
    const other = rows.find((r) => r !== current)!;
    fireEvent.click(within(other).getByRole("button", { name: "Revoke" }));
    await waitFor(() => expect(list("Active sessions").getAllByRole("listitem")).toHaveLength(1));
  });
});
