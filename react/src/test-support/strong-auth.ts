import { VirtualAuthenticator } from "@authsim/fake-provider";
import { controlClient } from "@authsim/sdk/emulator";
import type { WebAuthnAdapter } from "@authsim/sdk";
import { oauthInnerStateCookie } from "@authsim/sdk/contract";
import type { TestApp } from "./render-app.tsx";

/**
 * What the strong-auth page tests share. The SDK's OAuth, MFA and passkey flows read the page's URL, cookies and
 * session storage from the globals, which happy-dom provides (origin http://localhost:3000, vitest.config.ts), so the
 * tests move happy-dom's location instead of injecting a browser: the pages and the SDK then see the same page.
 */

export const PAGE_ORIGIN = "http://localhost:3000";

/** Puts the page at `path` (same origin), as a navigation would; `<Handler />` without `location` then renders it. */
export function visit(path: string): void {
  window.history.replaceState({}, "", new URL(path, PAGE_ORIGIN).href);
}

/** Back to a blank page: no MFA attempt left in session storage, no OAuth cookie, the home URL. */
export function resetPage(): void {
  window.sessionStorage.clear();
  for (const part of document.cookie.split(";")) {
    const name = part.split("=")[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
  visit("/");
}

export interface Identity {
  account_id: string;
  email?: string;
  name?: string;
  action?: "allow" | "deny";
}

/**
 * What the browser does at the emulator's mock identity provider (fake-provider control/strong-auth.ts): posts its form,
 * which sets the inner-state cookie, then follows the 303 to the provider's callback with that cookie. Gives the URL the
 * callback sends the browser to (the app's oauth-callback page, or its error page).
 */
export async function passIdentityProvider(t: TestApp, idpUrl: string, identity: Identity): Promise<string> {
  const state = new URL(idpUrl).searchParams.get("state") ?? "";
  const form = new URLSearchParams({ state, action: identity.action ?? "allow", account_id: identity.account_id });
  if (identity.email) form.set("email", identity.email);
  if (identity.name) form.set("name", identity.name);
  const posted = await t.provider.fetch(idpUrl, {
    method: "POST",
    body: form.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  if (posted.status !== 303)
    throw new Error(`The mock identity provider answered ${posted.status}: ${await posted.text()}`);
  // happy-dom's fetch classes act as a page's would: a Response drops Set-Cookie, and the Request constructor drops a
  // Cookie header. So the cookie the page set (its name is the contract's, its value "true") is put on the built
  // request by hand, as the browser would send it.
  const cookie = `${oauthInnerStateCookie(state)}=true`;
  const follow = new Request(posted.headers.get("location") ?? "", { redirect: "manual" });
  follow.headers.set("cookie", cookie);
  const back = await t.provider.fetch(follow);
  const location = back.headers.get("location");
  if (!location)
    throw new Error(`The provider's callback answered ${back.status} without a location: ${await back.text()}`);
  return location;
}

/** The code the user's authenticator app shows now, by the provider's clock (GET /__emulator/users/:id/totp). */
export async function providerTotp(t: TestApp, userId: string): Promise<string> {
  return (
    await controlClient({ baseUrl: "http://authsim.test", fetch: t.provider.fetch }).call("totp", {
      params: { user_id: userId },
    })
  ).code;
}

/** The SDK's webAuthn option over the emulator's software authenticator (no browser WebAuthn in happy-dom). */
export function softwareWebAuthn(authenticator = new VirtualAuthenticator({ origin: PAGE_ORIGIN })): {
  webAuthn: WebAuthnAdapter;
  authenticator: VirtualAuthenticator;
} {
  return {
    authenticator,
    webAuthn: {
      startRegistration: (options) => authenticator.register(options),
      startAuthentication: (options) => authenticator.authenticate(options),
    },
  };
}
