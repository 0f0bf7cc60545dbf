import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { internalProjectSeed } from "@authsim/fixtures";
import { callerHeaders } from "@authsim/sdk/contract";
import { controlClient } from "@authsim/sdk/emulator";
import { describeInChromium, launchChromium, type LaunchedBrowser } from "@authsim/fake-provider/testing";
import { startCli, type StartedCli } from "authsim/testing";
import { missingBuild, startRealDashboard, type RunningDashboard } from "./real-dashboard.ts";
import { openPage, recordPage, sidebarPages, type PageRecord } from "./walk.ts";

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
      page.setDefaultTimeout(30_000);
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

    it("signs up on the dashboard and creates a project", async () => {
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
      // The wizard's next step installs the apps a person picks; every app with sidebar pages, as its config does.
      const override = Object.fromEntries(installedApps.map((app) => [`apps.installed.${app}.enabled`, true]));
      await call("project-admin", "PATCH", "/internal/config/override", {
        config_override_string: JSON.stringify(override),
      });
    });

    it("renders every page of the sidebar with no page error and no refusal the real service would not give", async () => {
      await record.take();
      const rows: (PageRecord & { name: string; path: string; stayed: boolean })[] = [];
      for (const { name, path } of sidebarPages) {
        const url = `${dashboard!.url}/projects/${projectId}/${path}`.replace(/\/$/, "");
        await openPage(page, url);
        // A page that failed to render shows the dashboard's global error, which sends the person away.
        const stayed = new URL(page.url()).pathname.startsWith(new URL(url).pathname);
        rows.push({ name, path, stayed, ...(await record.take()) });
      }
      await writeFile(`${artifacts}real-dashboard-walk.json`, JSON.stringify(rows, null, 2));
      const broken = rows.filter((row) => row.pageErrors.length > 0 || !row.stayed);
      console.log(`real dashboard: ${rows.length - broken.length} / ${rows.length} pages render`);
      // Every page must render. Still failing (docs/real-dashboard.md, issue 34): the webhooks page leaves for the
      // project list. Soft, so the refusals below are still checked.
      expect.soft(broken.map((row) => row.name)).toEqual([]);
      const unexpected = rows.flatMap((row) =>
        row.failed.filter((f) => !realAnswers.has(f.what)).map((f) => ({ page: row.name, ...f })),
      );
      expect(unexpected).toEqual([]);
    });
  });
});

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

/** The dashboard's new-project page, as a person fills it; answers the new project's id from the URL it lands on. */
async function createProject(page: Page, dashboardUrl: string, name: string): Promise<string> {
  await openPage(page, `${dashboardUrl}/new-project`);
  await page.getByLabel("Project name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create Project" }).click();
  // The onboarding wizard goes on at the same page, naming the project it made.
  await page.waitForURL(/project_id=[0-9a-f-]{36}/);
  return new URL(page.url()).searchParams.get("project_id")!;
}
