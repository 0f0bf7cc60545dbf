import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Handler } from "../handler/handler.tsx";
import { useUser } from "../hooks/use-user.ts";
import {
  createTestApp,
  existingUser,
  PASSWORD,
  renderWithApp,
  uniqueEmail,
  type TestApp,
} from "../test-support/render-app.tsx";
import { resetPage, visit } from "../test-support/strong-auth.ts";
import { SignIn } from "./sign-in.tsx";
import { SignUp } from "./sign-up.tsx";

/**
 * The sign-in and sign-up pages for a visitor who is already signed in: the published kit's "You are already signed
 * in" card, and with automaticRedirect the redirect after authenticating (spec §2). Anonymous users are not signed in
 * for this (spec §4).
 */
afterEach(() => {
  cleanup();
  resetPage();
});

/** Shows who the hooks see as signed in. */
function Who() {
  return <p data-testid="who">{useUser()?.primaryEmail ?? "nobody"}</p>;
}

async function signedIn(t: TestApp): Promise<string> {
  const email = uniqueEmail("already");
  const result = await t.app.signUpWithCredential({
    email,
    password: PASSWORD,
    noRedirect: true,
    noVerificationCallback: true,
  });
  if (result.status === "error") throw result.error;
  return email;
}

/** The user fetch may still be suspending the page when the render returns, so the card is waited for. */
async function expectCard(email: string) {
  await screen.findByRole("heading", { level: 1, name: "You are already signed in" });
  expect(screen.getByText(`You are already signed in as ${email}.`)).toBeTruthy();
  expect(screen.getByRole("link", { name: "Go home" }).getAttribute("href")).toBe("/");
  expect(screen.getByRole("link", { name: "Sign out" }).getAttribute("href")).toBe("/handler/sign-out");
  expect(screen.queryByLabelText("Password")).toBeNull();
}

describe("an already signed-in visitor", () => {
  it("sees the card instead of the forms on the sign-in and sign-up pages, and by default is not sent anywhere", async () => {
    const t = createTestApp();
    const email = await signedIn(t);
    for (const [page, ui] of [
      ["/handler/sign-in?after_auth_return_to=%2Fprotected", <SignIn />],
      ["/handler/sign-up", <SignUp />],
    ] as const) {
      visit(page);
      await renderWithApp(t, ui);
      await expectCard(email);
      expect(screen.queryByRole("status")).toBeNull();
      cleanup();
    }
    expect(t.navigations).toEqual([]);
  });

  it("with automaticRedirect, goes on to after_auth_return_to, else to afterSignIn (sign-in) or afterSignUp (sign-up)", async () => {
    const t = createTestApp({ urls: { afterSignIn: "/signed-in", afterSignUp: "/welcome" } });
    const email = await signedIn(t);
    visit("/handler/sign-in?after_auth_return_to=%2Fprotected%3Ftab%3D2");
    await renderWithApp(t, <SignIn automaticRedirect />);
    await expectCard(email);
    await waitFor(() => expect(t.navigations).toEqual(["/protected?tab=2"]));
    expect(screen.getByRole("status").textContent).toBe("Redirecting…");
    cleanup();
    visit("/handler/sign-in");
    await renderWithApp(t, <SignIn automaticRedirect />);
    await waitFor(() => expect(t.navigations.at(-1)).toBe("/signed-in"));
    cleanup();
    visit("/handler/sign-up");
    await renderWithApp(t, <SignUp automaticRedirect />);
    await waitFor(() => expect(t.navigations.at(-1)).toBe("/welcome"));
    expect(t.navigations).toHaveLength(3);
  });

  it("with automaticRedirect, refuses an untrusted after_auth_return_to (spec §5) and keeps the links", async () => {
    const t = createTestApp();
    await signedIn(t);
    visit("/handler/sign-in?after_auth_return_to=https%3A%2F%2Fevil.example%2Fsteal");
    await renderWithApp(t, <SignIn automaticRedirect />);
    expect((await screen.findByRole("alert")).textContent).toMatch(
      /^Refusing to redirect to https:\/\/evil\.example\/steal/,
    );
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.getByRole("link", { name: "Go home" })).toBeTruthy();
    expect(t.navigations).toEqual([]);
  });
});

describe("a visitor who is not signed in for this", () => {
  it("gets the forms when anonymous, and signing up upgrades the anonymous user", async () => {
    const t = createTestApp();
    const anonymous = await t.app.getUser({ or: "anonymous" });
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    expect((await screen.findByRole("heading", { level: 1 })).textContent).toBe("Sign in");
    cleanup();
    await renderWithApp(t, <Handler location="/handler/sign-up" />);
    expect((await screen.findByRole("heading", { level: 1 })).textContent).toBe("Create an account");
    const email = uniqueEmail("upgrade");
    fireEvent.change(screen.getByLabelText(/^email$/i), { target: { value: email } });
    fireEvent.change(screen.getByLabelText(/^password$/i), { target: { value: PASSWORD } });
    fireEvent.change(screen.getByLabelText("Repeat password"), { target: { value: PASSWORD } });
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    await waitFor(() => expect(t.navigations).toEqual(["/"]));
    const user = await t.app.getUser({ or: "throw" });
    expect(user.id).toBe(anonymous.id);
    expect(user).toMatchObject({ isAnonymous: false, primaryEmail: email });
  });

  it("keeps the page they signed in on: one redirect (the sign-in's), not a second one for 'already signed in'", async () => {
    const t = createTestApp({ urls: { afterSignIn: "/signed-in" } });
    const email = await existingUser(t);
    visit("/handler/sign-in");
    await renderWithApp(
      t,
      <>
        <SignIn automaticRedirect />
        <Who />
      </>,
    );
    fireEvent.change(await screen.findByLabelText(/^email$/i), { target: { value: email } });
    fireEvent.change(screen.getByLabelText(/^password$/i), { target: { value: PASSWORD } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    // Once the hooks see the user, the sign-in page has had its chance to turn into the card and redirect again.
    await waitFor(() => expect(screen.getByTestId("who").textContent).toBe(email));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Sign in");
    expect(screen.getByRole("status").textContent).toBe("Signed in. Redirecting…");
    expect(t.navigations).toEqual(["/signed-in"]);
  });
});
