import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { internalProjectSeed } from "@authsim/fixtures";
import { callerHeaders } from "@authsim/sdk/contract";
import { controlClient } from "@authsim/sdk/emulator";
import { describeInChromium, launchChromium, type LaunchedBrowser } from "@authsim/fake-provider/testing";
import { startCli, type StartedCli } from "authsim/testing";
import {
  addTrustedDomain,
  addWebhookEndpoint,
  chooseApps,
  createEmailTemplate,
  createProduct,
  createProjectKeys,
  createUser,
  setUpPayments,
  toggleAuthMethod,
  configureSmtp,
} from "./actions.ts";
import { missingBuild, startRealDashboard, type RunningDashboard } from "./real-dashboard.ts";
import { openPage, recordPage, sidebarPages, type FailedAnswer, type PageRecord } from "./walk.ts";

/**
 * The real service's dashboard (built by build.sh, outside the repo) against the dev server, in Debian's Chromium:
 * an admin signs up, creates a project, opens every page of its sidebar, and does each page's main action, which then
 * shows through the API. Ports: authsim on 31602, the dashboard on 31601 (the real development setup's <prefix>01/02).
 * Skipped with the reason when the real repository or the build is absent (CI does not build it: docs/real-dashboard.md).
 */
const API_PORT = 31602;
const DASHBOARD_PORT = 31601;
const artifacts = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));
const missing = missingBuild();

describeInChromium("the real dashboard against authsim", () => {
  describe.skipIf(missing !== null)(`built and run${missing ? ` (skipped: ${missing})` : ""}`, () => {
    let cli: StartedCli | undefined;
    let dashboard: RunningDashboard | undefined;
    let browser: LaunchedBrowser | undefined;
    let page: Page;
    let api: string;
    let projectId: string;
    let record: ReturnType<typeof recordPage>;
    const email = `admin-${process.pid}@example.com`;
    const password = "correct horse battery";
    const keys = internalProjectSeed.keys;

    beforeAll(async () => {
      await mkdir(artifacts, { recursive: true });
      cli = await startCli(["--port", String(API_PORT), "--host", "localhost"]);
      api = cli.url;
      [dashboard, browser] = await Promise.all([
        startRealDashboard({
          apiUrl: api,
          port: DASHBOARD_PORT,
          portPrefix: "316",
          publishableClientKey: keys.publishable_client_key,
          secretServerKey: keys.secret_server_key,
          superSecretAdminKey: keys.super_secret_admin_key,
        }),
        launchChromium(),
      ]);
      // The dashboard loads analytics and Stripe from the internet on some pages; nothing leaves this machine.
      await browser.context.route(
        (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
        (route) => route.abort(),
      );
      page = browser.context.pages()[0] ?? (await browser.context.newPage());
      // Generous: the dashboard's server, Chromium and authsim share a loaded machine.
      page.setDefaultTimeout(60_000);
      record = recordPage(page, controlClient({ baseUrl: api }));
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await dashboard?.stop();
      await cli?.stop();
    });

    /** The dashboard's session: the internal project's access token of the admin signed in (its `stack-access` cookie). */
    const accessToken = async (): Promise<string> => {
      const access = (await browser!.context.cookies(dashboard!.url)).find((c) => c.name === "stack-access");
      if (!access) throw new Error("The dashboard holds no session cookie");
      // The kit stores ["<refresh token>", "<access token>"], URI-encoded.
      const value = decodeURIComponent(access.value);
      return value.startsWith("[") ? (JSON.parse(value) as string[])[1]! : value;
    };
    /** authsim's API as the dashboard calls it: the internal project as its user, or a project as its admin. */
    const call = async <T>(
      as: "internal-user" | "project-admin",
      method: string,
      path: string,
      body?: unknown,
    ): Promise<T> => {
      const token = await accessToken();
      const headers =
        as === "internal-user"
          ? callerHeaders({
              accessType: "client",
              projectId: "internal",
              publishableClientKey: keys.publishable_client_key,
              accessToken: token,
            })
          : callerHeaders({ accessType: "admin", projectId, adminAccessToken: token });
      const response = await fetch(`${api}/api/v1${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    };

    /** The project's rendered config, as the dashboard reads it (GET /internal/config). */
    const renderedConfig = async (): Promise<Config> =>
      JSON.parse(
        (await call<{ config_string: string }>("project-admin", "GET", "/internal/config")).config_string,
      ) as Config;
    const project = () => `${dashboard!.url}/projects/${projectId}`;
    /** authsim's answers of 400 or more since the last look, but those the real service gives there too. */
    const unexpectedAnswers = async (): Promise<FailedAnswer[]> =>
      (await record.take()).failed.filter((f) => !realAnswers.has(f.what));

    it("signs up on the dashboard, creates a project and picks its apps on the wizard's app-choice step", async () => {
      await openPage(page, `${dashboard!.url}/handler/sign-up`);
      await page.getByRole("tab", { name: "Email & Password" }).click();
      await page.getByRole("textbox", { name: "Email" }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByLabel("Repeat Password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Sign Up", exact: true }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/handler"));
      projectId = await createProject(page, dashboard!.url, "Analytical Engines");
      expect(projectId).toMatch(/^[0-9a-f-]{36}$/);
      const { items } = await call<{ items: { id: string; display_name: string }[] }>(
        "internal-user",
        "GET",
        "/internal/projects",
      );
      expect(items.map((p) => p.display_name)).toContain("Analytical Engines");
      // The core apps come picked; the others with sidebar pages are picked by name, as a person does.
      await chooseApps(page, wizardPicks);
      const { apps } = await renderedConfig();
      const installed = Object.keys(apps.installed).filter((app) => apps.installed[app]!.enabled);
      expect(installed.sort()).toEqual([...installedApps].sort());
      expect(await unexpectedAnswers()).toEqual([]);
    });

    it("creates a user, which the API then lists", async () => {
      await createUser(page, project(), { email: "ada@example.com", name: "Ada Lovelace" });
      const { items } = await call<{ items: { primary_email: string; display_name: string }[] }>(
        "project-admin",
        "GET",
        "/users",
      );
      expect(items).toContainEqual(
        expect.objectContaining({ primary_email: "ada@example.com", display_name: "Ada Lovelace" }),
      );
      expect(await unexpectedAnswers()).toEqual([]);
    });

    it("toggles an auth method (passkeys), which the config then shows", async () => {
      const before = (await renderedConfig()).auth.passkey.allowSignIn;
      await toggleAuthMethod(page, project(), "Passkey");
      expect((await renderedConfig()).auth.passkey.allowSignIn).toBe(!before);
      expect(await unexpectedAnswers()).toEqual([]);
    });

    it("adds a trusted domain, which the config then holds", async () => {
      await addTrustedDomain(page, project(), "engines.example.com");
      const domains = Object.values((await renderedConfig()).domains.trustedDomains).map((d) => d.baseUrl);
      expect(domains).toContain("https://engines.example.com");
      expect(await unexpectedAnswers()).toEqual([]);
    });

    it("creates project keys, which the API then lists", async () => {
      await createProjectKeys(page, project(), "keys for the difference engine");
      const { items } = await call<{ items: { description: string }[] }>("project-admin", "GET", "/internal/api-keys");
      expect(items.map((k) => k.description)).toContain("keys for the difference engine");
      expect(await unexpectedAnswers()).toEqual([]);
    });

    it("sets up payments through the onboarding page and creates a product, which the config then holds", async () => {
      await setUpPayments(page, project());
      expect(
        await call<{ charges_enabled: boolean }>("project-admin", "GET", "/internal/payments/stripe/account-info"),
      ).toMatchObject({ charges_enabled: true });
      await createProduct(page, project(), { id: "analytical-engine", name: "Analytical Engine" });
      expect((await renderedConfig()).payments.products["analytical-engine"]).toMatchObject({
        displayName: "Analytical Engine",
        customerType: "user",
        prices: "include-by-default",
      });
      expect(await unexpectedAnswers()).toEqual([]);
    });

    it("configures a custom SMTP server and creates an email template, which the API then lists", async () => {
      await configureSmtp(page, project(), {
        host: "smtp.engines.example",
        port: 587,
        username: "engines",
        password: "difference",
        senderEmail: "hello@engines.example",
        senderName: "Analytical Engines",
      });
      expect((await renderedConfig()).emails.server).toMatchObject({ isShared: false, host: "smtp.engines.example" });
      await createEmailTemplate(page, project(), "Weekly digest");
      const { templates } = await call<{ templates: { display_name: string }[] }>(
        "project-admin",
        "GET",
        "/internal/email-templates",
      );
      expect(templates.map((t) => t.display_name)).toContain("Weekly digest");
      expect(await unexpectedAnswers()).toEqual([]);
    });

    it("adds a webhook endpoint on the Webhooks page, which authsim's webhooks then hold", async () => {
      const url = `http://localhost:${API_PORT}/__hooks/${process.pid}`;
      await addWebhookEndpoint(page, project(), url);
      const endpoints = await controlClient({ baseUrl: api }).call("webhookEndpoints", { query: { projectId } });
      expect(endpoints.items.map((e) => e.url)).toContain(url);
      expect(await unexpectedAnswers()).toEqual([]);
    });

    it("renders every page of the sidebar with no page error and no refusal the real service would not give", async () => {
      await record.take();
      const rows: (PageRecord & { name: string; path: string; stayed: boolean })[] = [];
      for (const { name, path } of sidebarPages) {
        const url = `${project()}/${path}`.replace(/\/$/, "");
        await openPage(page, url);
        // A page that failed to render shows the dashboard's global error, which sends the person away.
        const stayed = new URL(page.url()).pathname.startsWith(new URL(url).pathname);
        const taken = await record.take();
        rows.push({ name, path, stayed, ...taken, pageErrors: taken.pageErrors.filter((e) => !offline.test(e)) });
      }
      await writeFile(`${artifacts}real-dashboard-walk.json`, JSON.stringify(rows, null, 2));
      const broken = rows.filter((row) => row.pageErrors.length > 0 || !row.stayed);
      console.log(`real dashboard: ${rows.length - broken.length} / ${rows.length} pages render`);
      expect.soft(broken.map((row) => row.name)).toEqual([]);
      const unexpected = rows.flatMap((row) =>
        row.failed.filter((f) => !realAnswers.has(f.what)).map((f) => ({ page: row.name, ...f })),
      );
      expect(unexpected).toEqual([]);
      // 32 pages, each waited for until its network is idle (up to 30 s: the kit's analytics batches keep it busy).
    }, 1_800_000);
  });
});

/** What the tests read of the rendered config. */
interface Config {
  apps: { installed: Record<string, { enabled: boolean }> };
  auth: { passkey: { allowSignIn: boolean } };
  domains: { trustedDomains: Record<string, { baseUrl: string }> };
  payments: { products: Record<string, Record<string, unknown>> };
  emails: { server: Record<string, unknown> };
}

/**
 * The apps picked on the wizard's app-choice step by their names there, beside the core ones it picks itself
 * (Authentication, Emails, Payments, Analytics): with them, every app with sidebar pages.
 */
const wizardPicks = ["API Keys", "Data Vault", "Launch Checklist", "Onboarding", "RBAC", "Teams", "Webhooks"];

/** The apps the sidebar's pages belong to (the dashboard's apps-frontend ids). */
const installedApps = [
  "authentication",
  "emails",
  "payments",
  "analytics",
  "api-keys",
  "data-vault",
  "launch-checklist",
  "onboarding",
  "rbac",
  "teams",
  "webhooks",
];

/**
 * Refusals the real service gives on these pages too (read in its handlers): a project with no Stripe account
 * (internal/payments/stripe/account-info), and the kit's analytics batches for the internal project, which has no
 * analytics app.
 */
const realAnswers = new Set(["STRIPE_ACCOUNT_INFO_NOT_FOUND", "ANALYTICS_NOT_ENABLED"]);

/**
 * Page errors of the internet this offline run blocks, not of authsim: once a project has a payments account, the
 * payments pages load Stripe's embedded components (Connect.js) from Stripe's servers.
 */
const offline = /^Failed to load Connect\.js/;

/** The dashboard's new-project page, as a person fills it; answers the new project's id from the URL it lands on. */
async function createProject(page: Page, dashboardUrl: string, name: string): Promise<string> {
  await openPage(page, `${dashboardUrl}/new-project`);
  await page.getByLabel("Project name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create Project" }).click();
  // The onboarding wizard goes on at the same page, naming the project it made.
  await page.waitForURL(/project_id=[0-9a-f-]{36}/);
  return new URL(page.url()).searchParams.get("project_id")!;
}
