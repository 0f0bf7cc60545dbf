import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { kitApps, prepareApp, type KitAppName } from "./kit-apps.ts";
import { callerHeaders } from "@authsim/sdk/contract";
import { controlClient, type ControlClient } from "@authsim/sdk/emulator";
import { describeInChromium, launchChromium, type LaunchedBrowser } from "@authsim/fake-provider/testing";
import { startCli } from "authsim/testing";
import { createAuthsim } from "authsim/playwright";

/**
 * One published kit's app (../react-vite or ../next) against the real dev server (`npm start`'s CLI on a loopback
 * port), in Debian's Chromium, as a person uses it: sign up, sign out, the protected page sending a visitor to sign in
 * and back, account settings (display name, a team), a forgotten password through the outbox, a one-time code, and
 * GitHub through the mock identity provider. Both kits render the same handler pages, so the steps are shared; each
 * test file adds what only its kit does. One browser, one server, one app, steps in order.
 * Screenshots go to published-kits/test-artifacts/<kit>-*.png.
 */
const artifacts = fileURLToPath(new URL("../test-artifacts/", import.meta.url));
export const PASSWORD = "correct horse battery";
export const NEW_PASSWORD = "a brand new secret";

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

export interface KitContext {
  /** The emulator, http://127.0.0.1:<port>. */
  api: string;
  app: RunningApp;
  page: Page;
  controls: ControlClient;
  /** This run's address for a person (unique per run, so a reused dev server keeps working). */
  email(name: string): string;
  /** The project's server API, as the app's backend would call it (no Origin: the secret key is accepted). */
  server<T>(method: string, path: string): Promise<T>;
  /** Errors thrown in the page since the last call (and then forgotten). */
  takePageErrors(): string[];
  shot(name: string): Promise<void>;
}

export interface KitSuite {
  /** "react-vite" or "next": the app (../react-vite, ../next), and the screenshots' names. */
  kit: KitAppName;
  title: string;
  startApp(apiUrl: string): Promise<RunningApp>;
  /**
   * The app's pages that need a user (each shows "Only for <email>"), and where a password sign-in lands after the page
   * sent a visitor to sign in: the page itself when the kit redirected in the browser (it adds `after_auth_return_to`),
   * or the after-sign-in URL, "/", when a server component redirected: there the kit (2.8.108) knows no current URL
   * and adds no return address.
   */
  protectedPages: readonly { path: string; after: "back" | "home" }[];
  /** Steps only this kit has, run after the shared ones. */
  more?(ctx: () => KitContext): void;
}

interface ServerUser {
  id: string;
  primary_email: string | null;
  display_name: string | null;
  primary_email_verified: boolean;
  has_password: boolean;
  oauth_providers: { id: string; account_id: string }[];
}

export function describePublishedKit(suite: KitSuite): void {
  describeInChromium(`${suite.title} in Chromium`, () => {
    let stopCli: (() => Promise<void>) | undefined;
    let browser: LaunchedBrowser | undefined;
    let runningApp: RunningApp | undefined;
    let ctx: KitContext;
    const pageErrors: string[] = [];
    const runId = `${process.pid}`;
    const ada = () => ctx.email("ada");

    // Its own timeout: on a cold clone, waiting for the app's install and build is most of this hook, minutes on a busy
    // machine (published-kits/README.md).
    beforeAll(async () => {
      await mkdir(artifacts, { recursive: true });
      // AUTHSIM_KITS_API_URL reuses a dev server you started yourself (`npm start`), to watch the run in its dashboard.
      const reuse = process.env.AUTHSIM_KITS_API_URL;
      // The emulator and the browser start while the app is made ready (by the global setup, or here if no one is doing
      // it). Settled, not Promise.all: afterAll stops what did start even when another part failed.
      const [started, launched, prepared] = await Promise.allSettled([
        reuse ? Promise.resolve(reuse.replace(/\/$/, "")) : startCli().then((cli) => ((stopCli = cli.stop), cli.url)),
        launchChromium().then((launched) => (browser = launched)),
        prepareApp(kitApps[suite.kit]),
      ]);
      for (const result of [prepared, started, launched]) if (result.status === "rejected") throw result.reason;
      const api = (started as PromiseFulfilledResult<string>).value;
      browser = (launched as PromiseFulfilledResult<LaunchedBrowser>).value;
      const app = (runningApp = await suite.startApp(api));
      // The kits load Stripe.js from its CDN on every page; nothing leaves this machine (the tests run offline).
      await browser.context.route(
        (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
        (route) => route.abort(),
      );
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      page.setDefaultTimeout(15_000);
      page.on("pageerror", (error) => pageErrors.push(error.message));
      page.on("dialog", (dialog) => {
        pageErrors.push(`alert: ${dialog.message()}`);
        void dialog.dismiss();
      });
      const serverHeaders = callerHeaders({
        accessType: "server",
        projectId: dev.id,
        secretServerKey: dev.keys.secret_server_key,
      });
      ctx = {
        api,
        app,
        page,
        controls: controlClient({ baseUrl: api }),
        email: (name) => `${name}-${suite.kit}-${runId}@example.com`,
        async server<T>(method: string, path: string) {
          const response = await fetch(`${api}/api/v1${path}`, { method, headers: serverHeaders });
          if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
          return (await response.json()) as T;
        },
        takePageErrors: () => pageErrors.splice(0),
        shot: (name) =>
          page.screenshot({ path: `${artifacts}${suite.kit}-${name}.png`, fullPage: true }).then(() => undefined),
      };
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await runningApp?.stop();
      await stopCli?.();
    });

    const userByEmail = async (email: string) => {
      const { items } = await ctx.server<{ items: ServerUser[] }>("GET", `/users?query=${encodeURIComponent(email)}`);
      const user = items.find((u) => u.primary_email === email);
      if (!user) throw new Error(`No user with the email ${email}`);
      return user;
    };
    const whoami = () => ctx.page.getByTestId("whoami").textContent();
    /**
     * Waits for the page to load `url`. After a sign-in or sign-up the kit redirects twice to the same place: the form
     * (signInWithCredential and the like) and the handler page, which redirects a visitor who is signed in by then
     * (its automaticRedirect), each with window.location.replace. The second navigation aborts the first, and
     * waitForURL rejects on any failed navigation ("net::ERR_ABORTED; maybe frame was detached?"), so an aborted one
     * is waited past: the page must still arrive at `url`, within the same timeout each time.
     */
    const arriveAt = async (url: string | ((url: URL) => boolean)) => {
      for (let aborted = 0; ; aborted++) {
        try {
          return await ctx.page.waitForURL(url);
        } catch (error) {
          if (aborted >= 2 || !/net::ERR_ABORTED|frame was detached/.test(String(error))) throw error;
        }
      }
    };
    const goHome = async () => {
      await ctx.page.goto(`${ctx.app.url}/`);
      await ctx.page.getByTestId("whoami").waitFor();
    };
    const signOut = async () => {
      await ctx.page.goto(`${ctx.app.url}/handler/sign-out`);
      await arriveAt(`${ctx.app.url}/`);
      await expect.poll(whoami).toBe("Not signed in");
    };
    /** The kit's sign-in page, "Email & Password" tab. */
    const submitPassword = async (email: string, password: string) => {
      const { page } = ctx;
      await page.getByRole("tab", { name: "Email & Password" }).click();
      await page.getByRole("textbox", { name: "Email" }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
    };
    /** The newest email of a kind to an address, read from GET /__emulator/outbox?to=… (waiting for it to be sent). */
    const newestEmail = async (to: string, kind: "password_reset" | "magic_link") => {
      await expect
        .poll(async () => (await ctx.controls.call("emails", { query: { to, kind } })).items.length, {
          timeout: 10_000,
        })
        .toBeGreaterThan(0);
      return (await ctx.controls.call("emails", { query: { to, kind } })).items.at(-1)!;
    };

    it("signs a new user up with an email and a password", async () => {
      const { page, app } = ctx;
      await page.goto(`${app.url}/handler/sign-up`);
      await page.getByRole("heading", { name: "Create a new account" }).waitFor();
      await page.getByRole("tab", { name: "Email & Password" }).click();
      await page.getByRole("textbox", { name: "Email" }).fill(ada());
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Repeat Password", { exact: true }).fill(PASSWORD);
      await ctx.shot("sign-up");
      await page.getByRole("button", { name: "Sign Up", exact: true }).click();
      await arriveAt(`${app.url}/`);
      await expect.poll(whoami).toBe(`Signed in as ${ada()}`);
      expect((await userByEmail(ada())).has_password).toBe(true);
      await ctx.shot("home-signed-in");
      expect(ctx.takePageErrors()).toEqual([]);
    });

    it("verifies the email address through the link in the outbox", async () => {
      const { page, app } = ctx;
      expect((await userByEmail(ada())).primary_email_verified).toBe(false);
      // Sent on sign-up, with the kit's email-verification handler as the callback.
      await expect
        .poll(
          async () =>
            (await ctx.controls.call("emails", { query: { to: ada(), kind: "email_verification" } })).items.length,
          { timeout: 10_000 },
        )
        .toBe(1);
      const [mail] = (await ctx.controls.call("emails", { query: { to: ada(), kind: "email_verification" } })).items;
      expect(mail!.link?.startsWith(`${app.url}/handler/email-verification?code=`)).toBe(true);
      await page.goto(mail!.link!);
      await page.getByText("Do you want to verify your email?").waitFor();
      await page.getByRole("button", { name: "Verify", exact: true }).click();
      await page.getByText("You email has been verified!").waitFor();
      expect((await userByEmail(ada())).primary_email_verified).toBe(true);
      expect(ctx.takePageErrors()).toEqual([]);
    });

    it("signs out through the sign-out handler page", async () => {
      await signOut();
      expect(ctx.takePageErrors()).toEqual([]);
    });

    it("sends a visitor from a protected page to sign in, then back to it (or home, from the server) after a password sign-in", async () => {
      const { page, app } = ctx;
      for (const [index, { path, after }] of suite.protectedPages.entries()) {
        if (index > 0) await signOut();
        await page.goto(`${app.url}${path}`);
        await arriveAt((url) => url.pathname === "/handler/sign-in");
        await page.getByRole("heading", { name: "Sign in to your account" }).waitFor();
        expect(new URL(page.url()).searchParams.get("after_auth_return_to")).toBe(after === "back" ? path : null);
        await submitPassword(ada(), PASSWORD);
        if (after === "home") {
          await arriveAt(`${app.url}/`);
          await expect.poll(whoami).toBe(`Signed in as ${ada()}`);
          await page.goto(`${app.url}${path}`);
        } else {
          await arriveAt(`${app.url}${path}`);
        }
        await expect.poll(() => page.getByTestId("protected").textContent()).toBe(`Only for ${ada()}`);
        await ctx.shot(`protected${path.replaceAll("/", "-").replace(/^-protected/, "")}`);
      }
      expect(ctx.takePageErrors()).toEqual([]);
    });

    it("changes the display name in account settings", async () => {
      const { page, app } = ctx;
      await page.goto(`${app.url}/handler/account-settings`);
      await page.getByRole("heading", { name: "Account Settings" }).first().waitFor();
      // The "User name" section: the name, an edit button (an icon), then a text field with Save.
      const section = page
        .getByText("This is a display name and is not used for authentication")
        .locator("xpath=../..");
      await section.getByRole("button").click();
      await section.getByRole("textbox").fill("Ada Lovelace");
      await section.getByRole("button", { name: "Save" }).click();
      await section.getByText("Ada Lovelace", { exact: true }).waitFor();
      await ctx.shot("account-settings-profile");
      await expect.poll(async () => (await userByEmail(ada())).display_name).toBe("Ada Lovelace");
      await goHome();
      await expect.poll(() => page.getByTestId("display-name").textContent()).toBe("Display name: Ada Lovelace");
      expect(ctx.takePageErrors()).toEqual([]);
    });

    it("creates a team in account settings", async () => {
      const { page, app } = ctx;
      await page.goto(`${app.url}/handler/account-settings`);
      // The kit renders account settings twice, a desktop and a mobile layout (one hidden by CSS), each with the
      // selected page's content: the form is the visible copy's.
      await page.getByRole("button", { name: "Create a team" }).locator("visible=true").click();
      await page.getByText("Enter a display name for your new team").locator("visible=true").waitFor();
      await page.locator("input#displayName").locator("visible=true").fill("Analytical Engines");
      await page.getByRole("button", { name: "Create", exact: true }).locator("visible=true").click();
      // The new team is a page of its own in the sidebar.
      await page.getByRole("button", { name: "Analytical Engines" }).locator("visible=true").waitFor();
      await ctx.shot("account-settings-team");
      const user = await userByEmail(ada());
      const teams = await ctx.server<{ items: { display_name: string }[] }>("GET", `/teams?user_id=${user.id}`);
      expect(teams.items.map((t) => t.display_name)).toContain("Analytical Engines");
      expect(ctx.takePageErrors()).toEqual([]);
    });

    it("resets a forgotten password through the link in the outbox, then signs in with the new one", async () => {
      const { page, app } = ctx;
      await signOut();
      await page.goto(`${app.url}/handler/forgot-password`);
      await page.getByRole("textbox", { name: "Your Email" }).fill(ada());
      await page.getByRole("button", { name: "Send Email", exact: true }).click();
      await page.getByText("Email sent!").waitFor();
      const mail = await newestEmail(ada(), "password_reset");
      expect(mail.link?.startsWith(`${app.url}/handler/password-reset?code=`)).toBe(true);
      await page.goto(mail.link!);
      await page.getByLabel("New Password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel("Repeat New Password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Reset Password", exact: true }).click();
      await page.getByText("Password reset successfully!").waitFor();
      await ctx.shot("password-reset");
      await page.goto(`${app.url}/handler/sign-in`);
      await submitPassword(ada(), NEW_PASSWORD);
      await arriveAt(`${app.url}/`);
      await expect.poll(whoami).toBe(`Signed in as ${ada()}`);
      expect(ctx.takePageErrors()).toEqual([]);
    });

    it("signs in with the one-time code from the outbox", async () => {
      const { page, app } = ctx;
      await signOut();
      const sentBefore = (await ctx.controls.call("emails", { query: { to: ada(), kind: "magic_link" } })).items.length;
      await page.goto(`${app.url}/handler/sign-in`);
      await page.getByRole("textbox", { name: "Email" }).fill(ada());
      await page.getByRole("button", { name: "Send email", exact: true }).click();
      await page.getByText("Enter the code from your email").waitFor();
      await expect
        .poll(
          async () => (await ctx.controls.call("emails", { query: { to: ada(), kind: "magic_link" } })).items.length,
        )
        .toBe(sentBefore + 1);
      const mail = await newestEmail(ada(), "magic_link");
      expect(mail.otp).toMatch(/^[0-9A-Z]{6}$/);
      await ctx.shot("otp");
      // One field behind the six boxes; the sixth character submits it.
      await page.locator("input[maxlength='6']").fill(mail.otp!);
      await arriveAt(`${app.url}/`);
      await expect.poll(whoami).toBe(`Signed in as ${ada()}`);
      expect(ctx.takePageErrors()).toEqual([]);
    });

    it("signs a new user up with GitHub through the mock identity provider's page", async () => {
      const { page, app, api } = ctx;
      const grace = ctx.email("grace");
      await signOut();
      await page.goto(`${app.url}/handler/sign-in`);
      await page.getByRole("button", { name: "Sign in with GitHub" }).click();
      await arriveAt((url) => url.href.startsWith(`${api}/__emulator/oauth/authorize/github?`));
      await page.getByRole("heading", { name: "Sign in with GitHub" }).waitFor();
      await page.getByLabel("Account id at GitHub").fill(`gh-grace-${suite.kit}-${runId}`);
      await page.getByLabel("Email", { exact: true }).fill(grace);
      await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
      await ctx.shot("oauth-mock-idp");
      await page.getByRole("button", { name: "Continue", exact: true }).click();
      await arriveAt(`${app.url}/`);
      await expect.poll(whoami).toBe(`Signed in as ${grace}`);
      const user = await userByEmail(grace);
      expect(user.oauth_providers.map((p) => [p.id, p.account_id])).toEqual([
        ["github", `gh-grace-${suite.kit}-${runId}`],
      ]);
      expect(user.display_name).toBe("Grace Hopper");
      expect(ctx.takePageErrors()).toEqual([]);
    });

    it("signs a user in with authsim/playwright's signIn: the protected pages show them without the sign-in page", async () => {
      const { page, app, api } = ctx;
      const lin = ctx.email("lin");
      await signOut();
      // A new address: the helper makes the user through the server API, then puts the session in the kit's cookies.
      await createAuthsim({ url: api }).signIn(page.context(), { email: lin, displayName: "Lin" });
      for (const { path } of suite.protectedPages) {
        await page.goto(`${app.url}${path}`);
        await expect.poll(() => page.getByTestId("protected").textContent()).toBe(`Only for ${lin}`);
        expect(new URL(page.url()).pathname).toBe(path);
      }
      await goHome();
      await expect.poll(whoami).toBe(`Signed in as ${lin}`);
      await ctx.shot("playwright-helper-signed-in");
      expect(ctx.takePageErrors()).toEqual([]);
    });

    suite.more?.(() => ctx);
  });
}

/** The env lines `npm start` prints for the dev project, as the Next.js app reads them. */
export function kitEnv(apiUrl: string): Record<string, string> {
  return {
    STACK_API_URL: apiUrl,
    STACK_PROJECT_ID: dev.id,
    STACK_PUBLISHABLE_CLIENT_KEY: dev.keys.publishable_client_key,
    STACK_SECRET_SERVER_KEY: dev.keys.secret_server_key,
  };
}
