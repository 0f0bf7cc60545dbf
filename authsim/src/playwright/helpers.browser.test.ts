import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { callerHeaders } from "@authsim/sdk/contract";
import { base32Decode, totpCode as expectedTotp } from "@authsim/sdk";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { describeInChromium, launchChromium, type LaunchedBrowser } from "@authsim/fake-provider/testing";
import { startCli, type StartedCli } from "authsim/testing";
import { createAuthsim, type AuthsimHelpers } from "./index.ts";

/**
 * authsim/playwright against the real dev server, in Debian's Chromium: its hosted pages (on our React bindings) are
 * the app. Each helper's own time is printed and held to a generous bound (the issue asks for ≤ 100 ms; a shared CI
 * machine is slower): what the page does after it is not counted.
 */
const BOUND_MILLIS = 1_000;
const server = callerHeaders({ accessType: "server", projectId: dev.id, secretServerKey: dev.keys.secret_server_key });

async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  const millis = performance.now() - started;
  console.log(`authsim/playwright ${name}: ${millis.toFixed(1)} ms`);
  expect(millis, `${name} took ${millis.toFixed(0)} ms`).toBeLessThan(BOUND_MILLIS);
  return result;
}

describeInChromium("authsim/playwright in Chromium against the dev server", () => {
  let cli: StartedCli;
  let browser: LaunchedBrowser;
  let page: Page;
  let auth: AuthsimHelpers;
  const api = async <T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = server,
  ): Promise<T> => {
    const response = await fetch(`${cli.url}/api/v1${path}`, {
      method,
      headers: { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
    return (await response.json()) as T;
  };

  beforeAll(async () => {
    [cli, browser] = await Promise.all([startCli(), launchChromium()]);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    auth = createAuthsim({ url: cli.url });
    // The server's first session (its signing key) and first passkey ceremony (loading its WebAuthn library, ~0.8 s)
    // are its own cold start: done once here, so the figures below are the helpers'.
    const warm = await auth.signIn(browser.context, "warm-up@example.com");
    const client = callerHeaders({
      accessType: "client",
      projectId: dev.id,
      publishableClientKey: dev.keys.publishable_client_key,
      accessToken: warm.accessToken,
    });
    await api("POST", "/auth/passkey/initiate-passkey-registration", {}, client);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await cli?.stop();
  });

  it("signIn makes the user and puts the session where our React bindings read it: the hosted app shows them", async () => {
    const ada = await timed("signIn (new user)", () =>
      auth.signIn(browser.context, { email: "ada@example.com", displayName: "Ada Lovelace" }),
    );
    await page.goto(`${cli.url}/app`);
    await expect.poll(() => page.getByTestId("whoami").textContent()).toBe("Signed in as Ada Lovelace");
    // The same address again signs the same user in (no second user).
    const again = await timed("signIn (existing user)", () => auth.signIn(browser.context, "ADA@example.com"));
    expect(again.id).toBe(ada.id);
    const { items } = await api<{ items: { id: string }[] }>("GET", "/users?query=ada%40example.com");
    expect(items.map((u) => u.id)).toEqual([ada.id]);
    // Both cookie families are in the browser for the app's hosts.
    const names = (await browser.context.cookies(cli.url)).map((c) => c.name).sort();
    expect(names).toEqual(
      expect.arrayContaining([
        "hexclave-access",
        `hexclave-refresh-${dev.id}--default`,
        "stack-access",
        `stack-refresh-${dev.id}`,
      ]),
    );
  });

  it("nextEmail and otpCode answer each email once, in order, waiting for one not sent yet", async () => {
    const to = "otp-reader@example.com";
    const send = () =>
      api(
        "POST",
        "/auth/otp/send-sign-in-code",
        { email: to, callback_url: `${cli.url}/handler/magic-link-callback` },
        callerHeaders({
          accessType: "client",
          projectId: dev.id,
          publishableClientKey: dev.keys.publishable_client_key,
        }),
      );
    await send();
    const first = await timed("otpCode", () => auth.otpCode(to));
    expect(first).toMatch(/^[0-9A-Z]{6}$/);
    // Asked before the second email is sent: it waits for it.
    const waiting = auth.nextEmail(to);
    await send();
    const second = await waiting;
    expect(second.to).toEqual([to]);
    expect(second.otp).not.toBe(first);
    // A code signs in: the one-time code is the email's.
    const signedIn = await fetch(`${cli.url}/api/v1/auth/otp/sign-in`, {
      method: "POST",
      headers: {
        ...callerHeaders({
          accessType: "client",
          projectId: dev.id,
          publishableClientKey: dev.keys.publishable_client_key,
        }),
        "content-type": "application/json",
      },
      body: JSON.stringify({ code: second.code }),
    });
    expect(signedIn.status).toBe(200);
    await expect(auth.nextEmail(to, { timeoutMs: 0 })).rejects.toMatchObject({ status: 408 });
  });

  it("totpCode answers the code of the user's authenticator app on the emulator's clock", async () => {
    const ada = await auth.signIn(browser.context, "ada@example.com");
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    const bytes = base32Decode(secret);
    await api("PATCH", `/users/${ada.id}`, { totp_secret_base64: Buffer.from(bytes).toString("base64") });
    const code = await timed("totpCode", () => auth.totpCode(ada));
    const { now_millis } = (await (await fetch(`${cli.url}/__emulator/clock`)).json()) as { now_millis: number };
    // The step may turn between the two reads: the code is the current step's or the one before.
    expect([await expectedTotp(bytes, now_millis), await expectedTotp(bytes, now_millis - 30_000)]).toContain(code);
    await api("PATCH", `/users/${ada.id}`, { totp_secret_base64: null });
  });

  it("registerPasskey adds a passkey with Chromium's virtual authenticator, which then signs the user in", async () => {
    // A passkey's site is a host name: the app on localhost (signIn set the cookies for it too).
    const origin = cli.url.replace("127.0.0.1", "localhost");
    await page.goto(`${origin}/app`);
    await expect.poll(() => page.getByTestId("whoami").textContent()).toBe("Signed in as Ada Lovelace");
    const passkey = await timed("registerPasskey", () => auth.registerPasskey(page));
    const { items } = await api<{ items: { id: string; passkey_auth_enabled: boolean }[] }>(
      "GET",
      "/users?query=ada%40example.com",
    );
    expect(items[0]!.passkey_auth_enabled).toBe(true);
    const cdp = await browser.context.newCDPSession(page);
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId: passkey.authenticatorId });
    expect(credentials.map((c) => c.rpId)).toEqual(["localhost"]);

    await page.goto(`${origin}/handler/sign-out`);
    await expect
      .poll(async () => (await browser.context.cookies(origin)).some((c) => c.name === `stack-refresh-${dev.id}`))
      .toBe(false);
    // The sign-out page then goes on to the app by itself: let it, or it interrupts the next navigation.
    await page.waitForURL((url) => !url.pathname.startsWith("/handler/sign-out"));
    await page.goto(`${origin}/handler/sign-in`);
    await page.getByRole("button", { name: "Continue with a passkey" }).click();
    await page.waitForURL(`${origin}/app`);
    await expect.poll(() => page.getByTestId("whoami").textContent()).toBe("Signed in as Ada Lovelace");
  });
});
