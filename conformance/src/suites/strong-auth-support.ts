import { expect } from "vitest";
import { CONTROL_PREFIX } from "@authsim/sdk/emulator";
import {
  memoryCookieDocument,
  memoryStorage,
  type BrowserEnvironment,
  type StackClientApp,
  type StackClientAppOptions,
} from "@authsim/sdk";
import { controlOf, type Target } from "../targets.ts";
import { clientApp, needs, type Requirement } from "./support.ts";

/**
 * What the strong-auth suites share (issue 5): a browser simulated in Node (page URL, cookie jar, session storage,
 * navigation record) for the SDK's OAuth/MFA/passkey flows, the emulator's mock identity provider driven over HTTP as
 * a browser would, and the TOTP helper endpoint.
 */

export const APP_ORIGIN = "http://localhost:3000";
export const NO_IDP_REASON =
  "drives the emulator's mock identity provider and TOTP helper (/__emulator), which this target does not have";
export const strongNeeds = { emulator: (t: Target): Requirement => [needs.controls(t)[0], NO_IDP_REASON] };

export interface SimulatedBrowser {
  env: BrowserEnvironment & { cookies: NonNullable<BrowserEnvironment["cookies"]> };
  page: { url: string };
  navigated: string[];
  warnings: string[];
}

export function simulatedBrowser(pageUrl = `${APP_ORIGIN}/`): SimulatedBrowser {
  const page = { url: pageUrl };
  const warnings: string[] = [];
  const env = {
    currentUrl: () => page.url,
    replaceUrl: (url: string) => void (page.url = url),
    cookies: memoryCookieDocument(),
    sessionStorage: memoryStorage(),
    warn: (m: string) => void warnings.push(m),
    alert: (m: string) => void warnings.push(`alert: ${m}`),
  };
  return { env, page, navigated: [], warnings };
}

/** A client app in a simulated browser: navigation is recorded and the page URL follows it. */
export function browserApp(
  target: Target,
  options: Omit<Partial<StackClientAppOptions>, "fetch"> = {},
  browser = simulatedBrowser(),
): { app: StackClientApp; browser: SimulatedBrowser } {
  const app = clientApp(target, {
    redirectMethod: {
      navigate: (to) => {
        browser.navigated.push(to);
        browser.page.url = new URL(to, browser.page.url).toString();
      },
    },
    urls: { afterSignIn: "/signed-in", afterSignUp: "/welcome" },
    browser: browser.env,
    ...options,
  });
  return { app, browser };
}

export interface Identity {
  account_id?: string;
  email?: string;
  name?: string;
  scopes?: string;
  action?: "allow" | "deny";
}

/** What a case changes on the way back from the identity provider. */
export interface Detour {
  /** Replaces the identity provider's code on its redirect to the provider's callback (a forged or mistyped code). */
  innerCode?: string;
}

/**
 * What the browser does at the mock identity provider, then at the provider's callback: posts the page's form (which
 * sets the inner-state cookie) and follows the 303 to the callback with that cookie. Answers the URL the callback sends
 * the browser to (the app's oauth-callback or error page).
 */
export async function passIdentityProvider(
  target: Target,
  idpLocation: string,
  identity: Identity,
  detour: Detour = {},
): Promise<string> {
  const state = new URL(idpLocation).searchParams.get("state")!;
  const form = new URLSearchParams({ state, action: identity.action ?? "allow" });
  for (const [k, v] of Object.entries(identity)) if (v !== undefined && k !== "action") form.set(k, v);
  const posted = await target.fetch(idpLocation, {
    method: "POST",
    body: form.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  expect(posted.status, await posted.clone().text()).toBe(303);
  const cookie = (posted.headers.get("set-cookie") ?? "").split(";")[0]!;
  const callback = new URL(posted.headers.get("location")!);
  if (detour.innerCode !== undefined) callback.searchParams.set("code", detour.innerCode);
  const back = await target.fetch(callback.toString(), { headers: { cookie }, redirect: "manual" });
  expect([303, 307], await back.clone().text()).toContain(back.status);
  return back.headers.get("location")!;
}

/** signInWithOAuth (or linking) through to the moment the browser lands back on the app. */
export async function landBack(
  target: Target,
  browser: SimulatedBrowser,
  identity: Identity,
  detour: Detour = {},
): Promise<void> {
  const idp = browser.navigated.at(-1)!;
  expect(idp).toContain(`${CONTROL_PREFIX}/oauth/authorize/`);
  browser.page.url = await passIdentityProvider(target, idp, identity, detour);
}

/** The code the user's authenticator app shows now (GET /__emulator/users/:id/totp, by the provider's clock). */
export async function currentTotp(target: Target, userId: string): Promise<string> {
  return (await controlOf(target).call("totp", { params: { user_id: userId } })).code;
}

/** 20 bytes, as authenticator apps use (protocol.md §7.4). */
export const TOTP_SECRET = new TextEncoder().encode("authsim-totp-secret!");
