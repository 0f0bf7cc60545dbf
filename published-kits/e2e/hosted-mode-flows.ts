import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { callerHeaders } from "@authsim/sdk/contract";
import { controlClient, type ControlClient } from "@authsim/sdk/emulator";
import { describeInChromium, launchChromium, type LaunchedBrowser } from "@authsim/fake-provider/testing";
import { startCli, type StartedCli } from "authsim/testing";
import { kitApps, prepareApp, type KitAppName } from "./kit-apps.ts";
import type { RunningApp } from "./kit-flows.ts";

/**
 * One published kit's app in hosted mode (`urls: { default: { type: "hosted" } }`) against the real dev server, in
 * Debian's Chromium: the app sends the person to authsim's hosted pages at `<projectId>.localhost:<port>` (the address
 * the banner's NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE line gives), the person signs up or in there (password,
 * emailed code, GitHub through the mock identity provider), and the pages hand the session back across origins
 * (hexclave_cross_domain_auth, POST /auth/oauth/cross-domain/authorize); the app lands on its protected page signed in.
 * An app origin the project does not trust is refused on the page with the service's own words. One browser, one
 * server, one app, steps in order. Screenshots: published-kits/test-artifacts/<kit>-hosted-*.png.
 */
const artifacts = fileURLToPath(new URL("../test-artifacts/", import.meta.url));
const PASSWORD = "correct horse battery";

export interface HostedModeSuite {
  kit: KitAppName;
  title: string;
  /** The app on the emulator at `apiUrl`, in hosted mode with the template the dev server printed. */
  startApp(apiUrl: string, hostedHandlerUrlTemplate: string): Promise<RunningApp>;
  /**
   * The app's page that needs a user and sends a visitor to sign in from the browser (useUser({ or: "redirect" })): the
   * kit knows its URL there, so the hand-off brings the person back to it.
   */
  protectedPath: string;
}

/** The template line of the banner's env lines: what a person pastes into the app's env. */
function printedTemplate(cli: StartedCli): string {
  const template = /^NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE=(\S+)$/m.exec(cli.banner)?.[1];
  if (!template)
    throw new Error(`The dev server printed no NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE line:\n${cli.banner}`);
  return template;
}

export function describeHostedMode(suite: HostedModeSuite): void {
  describeInChromium(`${suite.title} in hosted mode, in Chromium`, () => {
    let cli: StartedCli | undefined;
    let browser: LaunchedBrowser | undefined;
    let app: RunningApp | undefined;
    let page: Page;
    let controls: ControlClient;
    /** The dev project's hosted pages, http://<projectId>.localhost:<port>. */
    let hosted: string;
    const pageErrors: string[] = [];
    const ada = `ada-hosted-${suite.kit}-${process.pid}@example.com`;

    beforeAll(async () => {
      await mkdir(artifacts, { recursive: true });
      const [started, launched, prepared] = await Promise.allSettled([
        startCli(),
        launchChromium(),
        prepareApp(kitApps[suite.kit]),
      ]);
      if (started.status === "fulfilled") cli = started.value;
      if (launched.status === "fulfilled") browser = launched.value;
      for (const result of [prepared, started, launched]) if (result.status === "rejected") throw result.reason;
      const template = printedTemplate(cli!);
      hosted = new URL(template.replace("{projectId}", dev.id).replace("{hostedPath}", "")).origin;
      app = await suite.startApp(cli!.url, template);
      controls = controlClient({ baseUrl: cli!.url });
      // Nothing leaves this machine: the kits load Stripe.js from its CDN on every page.
      await browser!.context.route(
        (url) => !isThisMachine(url.hostname),
        (route) => route.abort(),
      );
      page = browser!.context.pages()[0] ?? (await browser!.context.newPage());
      page.setDefaultTimeout(15_000);
      page.on("pageerror", (error) => pageErrors.push(error.message));
      page.on("dialog", (dialog) => {
        pageErrors.push(`alert: ${dialog.message()}`);
        void dialog.dismiss();
      });
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await app?.stop();
      await cli?.stop();
    });

    const shot = (name: string) =>
      page.screenshot({ path: `${artifacts}${suite.kit}-hosted-${name}.png`, fullPage: true });
    const onHosted = (path: string) => (url: URL) => url.origin === hosted && url.pathname === path;
    /** The app's protected page, reached signed in: its text names the user. */
    const arriveProtected = async (email: string) => {
      await page.waitForURL((url) => url.origin === app!.url && url.pathname === suite.protectedPath);
      await expect.poll(() => page.getByTestId("protected").textContent()).toBe(`Only for ${email}`);
    };
    /** From the app's protected page to the hosted sign-in page, as a signed-out visitor. */
    const toHostedSignIn = async () => {
      await page.goto(`${app!.url}${suite.protectedPath}`);
      await page.waitForURL(onHosted("/handler/sign-in"));
      const returnTo = new URL(new URL(page.url()).searchParams.get("after_auth_return_to")!);
      expect([returnTo.origin, returnTo.searchParams.get("hexclave_cross_domain_auth")]).toEqual([app!.url, "1"]);
    };
    const signInWithPassword = async (email: string) => {
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
    };
    /**
     * Signs out of both: the app (the kit's own signOut, behind the home page's button) and the hosted pages, whose
     * session is their own (on their own origin, as on the real service): left signed in, they would hand it straight
     * back to the app on the next visit.
     */
    /**
     * Between the sign-in steps, once signing out has had its own step: both sessions forgotten at once (the app's and
     * the hosted pages' token cookies), which costs no page loads. Off the app first: a page left open would see its
     * cookies go and redirect while the next step navigates.
     */
    const forgetSessions = async () => {
      await page.goto("about:blank");
      await browser!.context.clearCookies();
    };
    const signOut = async () => {
      await page.goto(`${app!.url}/`);
      await page.getByRole("button", { name: "Sign out" }).click();
      await expect.poll(() => page.getByTestId("whoami").textContent()).toBe("Not signed in");
      await page.goto(`${hosted}/handler/sign-out`);
      await page.waitForURL(onHosted("/app"));
      await expect.poll(() => page.getByTestId("whoami").textContent()).toBe("Not signed in");
    };

    it("signs a new user up on the hosted pages and comes back to the protected page signed in", async () => {
      await toHostedSignIn();
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.waitForURL(onHosted("/handler/sign-up"));
      await page.getByLabel("Email", { exact: true }).fill(ada);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
      await shot("sign-up");
      await page.getByRole("button", { name: "Sign up" }).click();
      await arriveProtected(ada);
      await shot("protected");
      expect(pageErrors).toEqual([]);
    });

    it("verifies the address through the emailed link, on the hosted pages", async () => {
      const mail = await controls.call("waitForEmail", {
        query: { to: ada, kind: "email_verification", timeoutMs: 10_000 },
      });
      expect(new URL(mail.link!).origin).toBe(hosted);
      await page.goto(mail.link!);
      await page.getByText("Your email is verified.").waitFor();
      const verified = await fetch(`${cli!.url}/api/v1/users?query=${encodeURIComponent(ada)}`, {
        headers: callerHeaders({
          accessType: "server",
          projectId: dev.id,
          secretServerKey: dev.keys.secret_server_key,
        }),
      });
      const { items } = (await verified.json()) as {
        items: { primary_email: string; primary_email_verified: boolean }[];
      };
      expect(items.find((u) => u.primary_email === ada)?.primary_email_verified).toBe(true);
      expect(pageErrors).toEqual([]);
    });

    it("signs out in the app", async () => {
      await signOut();
      // Where the kit sends home, afterSignIn and afterSignOut in hosted mode (its hosted path "handler"): the home page.
      await page.goto(`${hosted}/handler`);
      await expect.poll(() => page.getByTestId("whoami").textContent()).toBe("Not signed in");
      expect(pageErrors).toEqual([]);
    });

    it("signs in with the password on the hosted pages and comes back signed in", async () => {
      await toHostedSignIn();
      await signInWithPassword(ada);
      await arriveProtected(ada);
      await forgetSessions();
      expect(pageErrors).toEqual([]);
    });

    it("signs in with the emailed one-time code and comes back signed in", async () => {
      await toHostedSignIn();
      await page.getByRole("button", { name: "Email me a code instead" }).click();
      const form = page.getByRole("form", { name: "Sign in with an emailed code" });
      await form.getByLabel("Email", { exact: true }).fill(ada);
      await form.getByRole("button", { name: "Send sign-in code" }).click();
      const mail = await controls.call("waitForEmail", { query: { to: ada, kind: "magic_link", timeoutMs: 10_000 } });
      await page.getByLabel("Sign-in code", { exact: true }).fill(mail.otp!);
      await page.getByRole("button", { name: "Sign in with code" }).click();
      await arriveProtected(ada);
      await forgetSessions();
      expect(pageErrors).toEqual([]);
    });

    it("signs a new user up with GitHub through the mock identity provider and comes back signed in", async () => {
      await toHostedSignIn();
      await page.getByRole("button", { name: "Continue with GitHub" }).click();
      await page.waitForURL((url) => url.pathname === "/__emulator/oauth/authorize/github");
      const grace = await page.getByLabel("Email", { exact: true }).inputValue();
      await shot("mock-idp");
      await page.getByRole("button", { name: "Continue", exact: true }).click();
      await arriveProtected(grace);
      await forgetSessions();
      expect(pageErrors).toEqual([]);
    });

    it("refuses to hand the session to an app origin the project does not trust, with the service's message on the page", async () => {
      await controls.call("updateProject", {
        params: { project_id: dev.id },
        body: { config: { allow_localhost: false } },
      });
      try {
        await toHostedSignIn();
        await signInWithPassword(ada);
        await page
          .getByRole("alert")
          .filter({
            hasText:
              "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?",
          })
          .waitFor();
        await shot("refused");
        expect(new URL(page.url()).origin).toBe(hosted);
        expect(pageErrors).toEqual([]);
      } finally {
        await controls.call("updateProject", {
          params: { project_id: dev.id },
          body: { config: { allow_localhost: true } },
        });
      }
    });
  });
}

/** Loopback names, `<projectId>.localhost` included (Chromium resolves every *.localhost to this machine). */
function isThisMachine(hostname: string): boolean {
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname.endsWith(".localhost");
}
