import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { clientCachesSymbol } from "@authsim/sdk";
import { Handler } from "../handler/handler.tsx";
import { openPage } from "../test-support/settings-pages.ts";
import { createTestApp, PASSWORD, renderWithApp, uniqueEmail, type TestApp } from "../test-support/render-app.tsx";

afterEach(cleanup);

/** Account settings of a new user, on the page of the side menu named `page`. */
async function openSettings(t: TestApp, page: string): Promise<string> {
  const email = uniqueEmail();
  await t.app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, noVerificationCallback: true });
  await renderWithApp(t, <Handler location="/handler/account-settings" />);
  await screen.findByRole("heading", { name: "Account settings" });
  await openPage(page);
  return email;
}

const list = (name: string) => within(screen.getByRole("list", { name }));

describe("account settings sections", () => {
  it("shows one page of the side menu at a time, the profile first, or the one the address fragment names", async () => {
    const t = createTestApp();
    await openSettings(t, "Teams");
    const menu = within(screen.getByRole("navigation", { name: "Account settings pages" }));
    expect(menu.getAllByRole("button").map((b) => b.textContent)).toEqual([
      "Profile",
      "Emails & sign-in",
      "Notifications",
      "Active sessions",
      "API keys",
      "Teams",
      "Sign out & delete",
    ]);
    expect(menu.getByRole("button", { name: "Teams" }).getAttribute("aria-current")).toBe("page");
    expect(screen.getByRole("heading", { name: "Teams" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Profile" })).toBeNull();
    cleanup();
    await renderWithApp(t, <Handler location="/handler/account-settings" />);
    expect(await screen.findByRole("heading", { name: "Profile" })).toBeTruthy();
    cleanup();
    await renderWithApp(t, <Handler location="/handler/account-settings#api-keys" />);
    expect(await screen.findByRole("heading", { name: "API keys" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Teams" })).toBeNull();
    // A link that changes only the fragment (no page load) opens that page too.
    await act(async () => {
      window.location.hash = "#sessions";
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    });
    expect(await screen.findByRole("heading", { name: "Active sessions" })).toBeTruthy();
  });

  it("adds an email, sends its verification email, and removes it", async () => {
    const t = createTestApp();
    const primary = await openSettings(t, "Emails & sign-in");
    await waitFor(() => expect(list("Email addresses").getByText(new RegExp(primary))).toBeTruthy());
    fireEvent.change(screen.getByLabelText("New email address"), { target: { value: "second@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Add email" }));
    const row = await waitFor(() =>
      list("Email addresses")
        .getByText(/second@example\.com/)
        .closest("li")!,
    );
    expect(row.textContent).toContain("(not verified)");
    fireEvent.click(within(row).getByRole("button", { name: "Send verification email" }));
    await waitFor(() =>
      expect(within(row).getByRole("status").textContent).toBe("Verification email sent to second@example.com."),
    );
    const mail = await t.provider.outbox.waitFor({ to: "second@example.com", kind: "email_verification" });
    expect(new URL(mail.link ?? "").pathname).toBe("/handler/email-verification");
    fireEvent.click(within(row).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(list("Email addresses").queryByText(/second@example\.com/)).toBeNull());
  });

  it("creates an API key, shows its value once and then its last four characters, and revokes it", async () => {
    const t = createTestApp();
    await openSettings(t, "API keys");
    fireEvent.change(screen.getByLabelText("Key description"), { target: { value: "deploy bot" } });
    fireEvent.click(screen.getByRole("button", { name: "Create key" }));
    const value = await waitFor(() => screen.getByText(/copy it now/).querySelector("code")!.textContent!);
    await waitFor(() =>
      expect(list("API keys").getByText(`deploy bot (…${value.slice(-4)})`, { exact: false })).toBeTruthy(),
    );
    fireEvent.click(list("API keys").getByRole("button", { name: "Revoke" }));
    await waitFor(() => expect(list("API keys").getByText(/\(revoked\)/)).toBeTruthy());
  });

  it("creates a team", async () => {
    const t = createTestApp();
    await openSettings(t, "Teams");
    expect(screen.getByText("You are not in any team.")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Team name"), { target: { value: "Babbage & Co" } });
    fireEvent.click(screen.getByRole("button", { name: "Create team" }));
    await waitFor(() => expect(list("Teams").getByText("Babbage & Co")).toBeTruthy());
  });

  it("lists sessions and revokes another one, never the current one", async () => {
    const t = createTestApp();
    const email = await openSettings(t, "Active sessions");
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
