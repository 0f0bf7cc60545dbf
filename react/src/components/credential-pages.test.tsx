import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Handler } from "../handler/handler.tsx";
import { createTestApp, existingUser, PASSWORD, renderWithApp, uniqueEmail } from "../test-support/render-app.tsx";

afterEach(cleanup);

function fill(label: RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

async function submit(name: RegExp) {
  fireEvent.click(screen.getByRole("button", { name }));
}

describe("the sign-in page", () => {
  it("shows the known error's message for a wrong password, and stays signed out", async () => {
    const t = createTestApp();
    const email = await existingUser(t);
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    fill(/^email$/i, email);
    fill(/^password$/i, "not the password");
    await submit(/sign in/i);
    expect((await screen.findByRole("alert")).textContent).toBe("Wrong e-mail or password.");
    expect(await t.app.getUser()).toBeNull();
    expect(t.navigations).toEqual([]);
  });

  it("signs in and goes to afterSignIn (home by default)", async () => {
    const t = createTestApp();
    const email = await existingUser(t);
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    fill(/^email$/i, email);
    fill(/^password$/i, PASSWORD);
    await submit(/sign in/i);
    await waitFor(() => expect(t.navigations).toEqual(["/"]));
    expect((await t.app.getUser())?.primaryEmail).toBe(email);
  });

  it("goes to an overridden afterSignIn", async () => {
    const t = createTestApp({ urls: { afterSignIn: "/dashboard" } });
    const email = await existingUser(t);
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    fill(/^email$/i, email);
    fill(/^password$/i, PASSWORD);
    await submit(/sign in/i);
    await waitFor(() => expect(t.navigations).toEqual(["/dashboard"]));
  });

  it("returns to after_auth_return_to, and passes it on to the sign-up link (spec §2)", async () => {
    const t = createTestApp();
    const email = await existingUser(t);
    await renderWithApp(t, <Handler location="/handler/sign-in?after_auth_return_to=%2Fprotected%3Ftab%3D2" />);
    const signUpLink = screen.getByRole("link", { name: /create an account/i });
    expect(signUpLink.getAttribute("href")).toBe("/handler/sign-up?after_auth_return_to=%2Fprotected%3Ftab%3D2");
    fill(/^email$/i, email);
    fill(/^password$/i, PASSWORD);
    await submit(/sign in/i);
    await waitFor(() => expect(t.navigations).toEqual(["/protected?tab=2"]));
  });

  it("refuses to return to an untrusted URL and says so", async () => {
    const t = createTestApp();
    const email = await existingUser(t);
    await renderWithApp(
      t,
      <Handler location="/handler/sign-in?after_auth_return_to=https%3A%2F%2Fevil.example%2Fsteal" />,
    );
    fill(/^email$/i, email);
    fill(/^password$/i, PASSWORD);
    await submit(/sign in/i);
    expect((await screen.findByRole("alert")).textContent).toMatch(
      /Refusing to redirect to https:\/\/evil\.example\/steal/,
    );
    expect(t.navigations).toEqual([]);
  });

  it("returns to a URL on a trusted domain of the provider's props", async () => {
    const t = createTestApp();
    const email = await existingUser(t);
    await renderWithApp(
      t,
      <Handler location="/handler/sign-in?after_auth_return_to=https%3A%2F%2Fapp.example.com%2Fhome" />,
      {
        trustedRedirects: { domains: [{ domain: "https://*.example.com" }] },
      },
    );
    fill(/^email$/i, email);
    fill(/^password$/i, PASSWORD);
    await submit(/sign in/i);
    await waitFor(() => expect(t.navigations).toEqual(["https://app.example.com/home"]));
  });

  it("alerts on an unhandled async error (spec §8) instead of showing a message inline", async () => {
    const t = createTestApp();
    t.provider.faults.add({ path: "/auth/password/sign-in", action: { type: "status", status: 500 } });
    await renderWithApp(t, <Handler location="/handler/sign-in" />);
    fill(/^email$/i, uniqueEmail());
    fill(/^password$/i, PASSWORD);
    await submit(/sign in/i);
    await waitFor(() => expect(t.alerts).toHaveLength(1));
    expect(t.alerts[0]).toMatch(/^An unexpected error occurred: /);
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("the sign-up page", () => {
  it("checks that the passwords match before sending anything", async () => {
    const t = createTestApp();
    await renderWithApp(t, <Handler location="/handler/sign-up" />);
    fill(/^email$/i, uniqueEmail());
    fill(/^password$/i, PASSWORD);
    fill(/repeat password/i, "something else");
    await submit(/sign up/i);
    expect((await screen.findByRole("alert")).textContent).toBe("Passwords do not match.");
    expect(await t.app.getUser()).toBeNull();
  });

  it("shows USER_EMAIL_ALREADY_EXISTS's message for a taken email", async () => {
    const t = createTestApp();
    const email = await existingUser(t);
    await renderWithApp(t, <Handler location="/handler/sign-up" />);
    fill(/^email$/i, email);
    fill(/^password$/i, PASSWORD);
    fill(/repeat password/i, PASSWORD);
    await submit(/sign up/i);
    expect((await screen.findByRole("alert")).textContent).toContain(email);
  });

  it("signs up, then goes to after_auth_return_to; the sign-in link carries it too", async () => {
    const t = createTestApp();
    const email = uniqueEmail();
    await renderWithApp(t, <Handler location="/handler/sign-up?after_auth_return_to=%2Fwelcome" />);
    expect(screen.getByRole("link", { name: /sign in/i }).getAttribute("href")).toBe(
      "/handler/sign-in?after_auth_return_to=%2Fwelcome",
    );
    fill(/^email$/i, email);
    fill(/^password$/i, PASSWORD);
    fill(/repeat password/i, PASSWORD);
    await submit(/sign up/i);
    await waitFor(() => expect(t.navigations).toEqual(["/welcome"]));
    expect((await t.app.getUser())?.primaryEmail).toBe(email);
  });
});
