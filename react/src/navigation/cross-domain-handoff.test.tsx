import { createHash } from "node:crypto";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CONTROL_PREFIX } from "@authsim/fake-provider";
import { devProjectSeed } from "@authsim/fixtures";
import { Handler } from "../handler/handler.tsx";
import { configureProject } from "../test-support/project-config.ts";
import { createTestApp, existingUser, PASSWORD, renderWithApp, type TestApp } from "../test-support/render-app.tsx";
import { passIdentityProvider, resetPage, visit } from "../test-support/strong-auth.ts";

/**
 * The hosted pages' half of the published kit's cross-domain sign-in: the sign-in page stands on the hosted origin
 * (happy-dom's http://localhost:3000), the app on another (http://127.0.0.1:5173) with the PKCE verifier the kit kept.
 * After signing in the page gets a one-time code from the service and sends the browser to the app with it; the
 * app's exchange of that code at the token endpoint (what the kit's oauth-callback does) gives the same user.
 */
afterEach(() => {
  cleanup();
  resetPage();
});

const APP = "http://127.0.0.1:5173";
const verifier = "v".repeat(20) + "-verifier-the-app-kept-in-its-cookie";
const challenge = createHash("sha256").update(verifier).digest("base64url");

/** The sign-in page as the kit's hosted mode opens it: its return address on the app, with the hand-off's state. */
function hostedSignIn(): { path: string; callback: string } {
  const callback = new URL("/handler/oauth-callback", APP);
  callback.searchParams.set("hexclave_cross_domain_auth", "1");
  callback.searchParams.set("hexclave_cross_domain_state", "app-state");
  callback.searchParams.set("hexclave_cross_domain_code_challenge", challenge);
  callback.searchParams.set("hexclave_cross_domain_after_callback_redirect_url", `${APP}/protected`);
  const page = new URLSearchParams({
    after_auth_return_to: callback.href,
    hexclave_cross_domain_after_callback_redirect_url: `${APP}/protected`,
    hexclave_cross_domain_state: "app-state",
    hexclave_cross_domain_code_challenge: challenge,
  });
  return { path: `/handler/sign-in?${page}`, callback: callback.href };
}

async function signInWithPassword(t: TestApp, email: string, path: string): Promise<void> {
  await renderWithApp(t, <Handler location={path} />);
  fireEvent.change(screen.getByLabelText(/^email$/i), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/^password$/i), { target: { value: PASSWORD } });
  fireEvent.click(screen.getByRole("button", { name: /sign in/i }));
}

/** The app's side: the code exchanged at the token endpoint with the verifier, for the redirect URI it was given for. */
async function exchange(t: TestApp, back: URL): Promise<{ status: number; body: Record<string, unknown> }> {
  const code = back.searchParams.get("code")!;
  const redirectUri = new URL(back);
  redirectUri.searchParams.delete("code");
  redirectUri.searchParams.delete("state");
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri.href,
    code_verifier: verifier,
    client_id: devProjectSeed.id,
    client_secret: devProjectSeed.keys.publishable_client_key,
  });
  const response = await t.provider.fetch("http://authsim.test/api/v1/auth/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the cross-domain hand-off of the kit's hosted mode", () => {
  it("sends the browser back to the app with a code for this session, which the app exchanges for it", async () => {
    const t = createTestApp();
    const email = await existingUser(t);
    const { path, callback } = hostedSignIn();
    await signInWithPassword(t, email, path);
    await waitFor(() => expect(t.navigations).toHaveLength(1));
    const back = new URL(t.navigations[0]!);
    // The app's own return address, unchanged, with the code and the app's state added.
    expect(back.origin).toBe(APP);
    expect(back.searchParams.get("state")).toBe("app-state");
    for (const [key, value] of new URL(callback).searchParams) expect(back.searchParams.get(key)).toBe(value);

    const { status, body } = await exchange(t, back);
    expect(status).toBe(200);
    expect(body.after_callback_redirect_url).toBe(`${APP}/protected`);
    const me = await t.provider.fetch("http://authsim.test/api/v1/users/me", {
      headers: {
        "x-stack-project-id": devProjectSeed.id,
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": devProjectSeed.keys.publishable_client_key,
        "x-stack-access-token": String(body.access_token),
      },
    });
    expect(((await me.json()) as { primary_email: string }).primary_email).toBe(email);
    // One code, once.
    expect((await exchange(t, back)).status).toBe(400);
  });

  it("shows the service's refusal on the page when the project does not trust the app's address", async () => {
    const t = createTestApp();
    await configureProject(t, { allowLocalhost: false });
    const email = await existingUser(t);
    await signInWithPassword(t, email, hostedSignIn().path);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?",
    );
    expect(t.navigations).toEqual([]);
    expect(t.alerts).toEqual([]);
  });

  it("signs in with a provider through this page, which then hands the session over", async () => {
    const t = createTestApp();
    const { path } = hostedSignIn();
    visit(path);
    await renderWithApp(t, <Handler />);
    fireEvent.click(screen.getByRole("button", { name: "Continue with GitHub" }));
    await waitFor(() => expect(t.navigations.at(-1)).toContain(`${CONTROL_PREFIX}/oauth/authorize/github`));
    const callback = await passIdentityProvider(t, t.navigations.at(-1)!, {
      account_id: "gh-handoff",
      email: "handoff@example.com",
      name: "Hand Off",
    });
    cleanup();
    visit(callback);
    await renderWithApp(t, <Handler />);
    // Back on the sign-in page it started from, with the app's return address still on it.
    await waitFor(() => expect(t.navigations.at(-1)).toBe(new URL(path, window.location.origin).href));
    cleanup();
    visit(path);
    await renderWithApp(t, <Handler />);
    await waitFor(() =>
      expect(t.navigations.at(-1)).toMatch(/^http:\/\/127\.0\.0\.1:5173\/handler\/oauth-callback\?.*&code=/),
    );
    const { body } = await exchange(t, new URL(t.navigations.at(-1)!));
    expect(body.is_new_user).toBe(false);
  });
});
