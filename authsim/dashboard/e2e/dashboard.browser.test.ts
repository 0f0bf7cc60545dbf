import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { controlClient } from "@authsim/sdk/emulator";
import { describeInChromium, launchChromium, type LaunchedBrowser } from "@authsim/fake-provider/testing";
import { startCli, type StartedCli } from "authsim/testing";
import { fitSuite } from "./fit-suite.ts";
import { saveScreenshot } from "./screenshot.ts";
import { settingsSuite } from "./settings-suite.ts";

/**
 * The dashboard in real Chromium against the real dev server (src/cli.ts with --seed, building the dashboard if it
 * is stale), driven like a developer would: create a user, impersonate it, send its verification email, see it in the
 * outbox and click its link (the hosted page on the same server verifies the address), add a fault and see the next
 * request fail in the request log with its why, advance the clock until a reset code triggered through the API expires,
 * and take a snapshot out and back in. Screenshots go to authsim/test-artifacts/. Then, on the same server and browser,
 * the Settings tab (settings-suite.ts) and every page's fit at 1280 and 360 px (fit-suite.ts).
 */
const artifacts = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));
const scenario = "fixtures/scenarios/saas-teams.json";
const EMAIL = "grace@example.com";
const clientHeaders = {
  "x-stack-access-type": "client",
  "x-stack-project-id": dev.id,
  "x-stack-publishable-client-key": dev.keys.publishable_client_key,
};
const serverHeaders = {
  "x-stack-access-type": "server",
  "x-stack-project-id": dev.id,
  "x-stack-secret-server-key": dev.keys.secret_server_key,
};

describeInChromium("the dashboard in Chromium", () => {
  let cli: StartedCli;
  let browser: LaunchedBrowser;
  let page: Page;
  let downloads: string;
  const pageErrors: string[] = [];

  const shot = (name: string) => saveScreenshot(page, `dashboard-${name}`, { dir: artifacts });
  const tab = async (name: string) => {
    // A tab's name may end with its count ("Users 3").
    await page
      .getByRole("navigation", { name: "Sections" })
      .getByRole("link", { name: new RegExp(`^${name}( \\d+)?$`) })
      .click();
  };
  const apiFetch = (path: string, init: { method?: string; headers: Record<string, string>; json?: unknown }) =>
    fetch(`${cli.url}/api/v1${path}`, {
      method: init.method ?? (init.json === undefined ? "GET" : "POST"),
      headers: { ...init.headers, ...(init.json === undefined ? {} : { "content-type": "application/json" }) },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });

  beforeAll(async () => {
    await mkdir(artifacts, { recursive: true });
    downloads = await mkdtemp(join(tmpdir(), "authsim-dashboard-downloads-"));
    cli = await startCli(["--seed", scenario]);
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => message.type() === "error" && pageErrors.push(`console: ${message.text()}`));
    // Deleting asks for confirmation; the test accepts.
    page.on("dialog", (dialog) => void dialog.accept());
  });

  afterAll(async () => {
    await browser?.close();
    await cli?.stop();
    if (downloads) await rm(downloads, { recursive: true, force: true });
  });

  it("is served at / by the dev server, with the seeded projects, their keys and env lines", async () => {
    expect(cli.banner).toContain(`Dashboard: ${cli.url}/`);
    expect(cli.banner).toContain(`Seeded from ${scenario}`);
    await page.goto(`${cli.url}/`);
    await page.getByRole("heading", { name: "authsim emulator" }).waitFor();
    await page.getByRole("cell", { name: "Northwind Notes" }).waitFor();
    await page.getByRole("cell", { name: "authsim dev project" }).waitFor();
    expect(await page.getByTestId("env-lines").textContent()).toContain(`STACK_PROJECT_ID=${dev.id}`);
    await shot("projects");
    expect(pageErrors).toEqual([]);
  });

  it("creates a user, lists it, and impersonates it with a session that works", async () => {
    await tab("Users");
    await page.getByLabel("Email", { exact: true }).fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await page.getByLabel("Display name", { exact: true }).first().fill("Grace Hopper");
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByTestId("users").getByRole("cell", { name: EMAIL }).waitFor();
    await page.getByRole("heading", { name: EMAIL }).waitFor();
    const listed = (await (await apiFetch(`/users?query=grace`, { headers: serverHeaders })).json()) as {
      items: { primary_email: string }[];
    };
    expect(listed.items.map((u) => u.primary_email)).toEqual([EMAIL]);

    await page.getByRole("button", { name: "Impersonate (mint a session)" }).click();
    const tokens = page.getByTestId("impersonation-tokens");
    await tokens.waitFor();
    const accessToken = (await tokens.locator("code").first().textContent())!;
    const me = await apiFetch("/users/me", { headers: { ...clientHeaders, "x-stack-access-token": accessToken } });
    expect(((await me.json()) as { primary_email: string }).primary_email).toBe(EMAIL);
    await page.getByTestId("sessions").getByText("impersonation").waitFor();
    await shot("users");
  });

  it("sends a verification email from the user's detail, shows it in the outbox, and its link verifies the address", async () => {
    const status = page.getByTestId("primary-email-status");
    expect(await status.textContent()).toBe("Unverified");
    await page.getByRole("button", { name: "Send verification email" }).click();
    await page.getByRole("status").getByText(`Sent a verification email to ${EMAIL}`).waitFor();

    await tab("Outbox");
    await page.getByTestId("outbox").getByRole("cell", { name: EMAIL }).waitFor();
    const link = page.getByTestId("email-link");
    const href = (await link.getAttribute("href"))!;
    // The dashboard asked for the hosted page on its own origin, so the link works with no app running.
    expect(href.startsWith(`${cli.url}/handler/email-verification?`)).toBe(true);
    const code = new URL(href).searchParams.get("code")!;
    expect(await page.getByTestId("email-code").textContent()).toBe(code);
    expect(await link.getAttribute("target")).toBe("_blank");
    // The HTML is rendered in a frame that may open links but runs no script.
    const frame = page.locator('iframe[title="Email body"]');
    expect(await frame.getAttribute("sandbox")).toBe("allow-popups allow-popups-to-escape-sandbox");
    await expect
      .poll(() => page.frameLocator('iframe[title="Email body"]').locator(`a[href*="${code}"]`).count())
      .toBeGreaterThan(0);
    await shot("outbox");

    // target=_blank: the hosted page opens in a new tab of the same browser context.
    const [hosted] = await Promise.all([browser.context.waitForEvent("page"), link.click()]);
    hosted.on("pageerror", (error) => pageErrors.push(`hosted: ${error.message}`));
    hosted.on(
      "console",
      (message) => message.type() === "error" && pageErrors.push(`hosted console: ${message.text()}`),
    );
    await hosted.getByText("Your email is verified.").waitFor();
    expect(hosted.url().startsWith(`${cli.url}/handler/email-verification`)).toBe(true);
    await saveScreenshot(hosted, "dashboard-email-verified", { dir: artifacts });
    await hosted.close();

    // The Users tab loads afresh; the detail now says verified, and so does the server API.
    await tab("Users");
    await page.getByTestId("users").getByRole("cell", { name: EMAIL }).click();
    await expect.poll(() => status.textContent()).toBe("Verified");
    expect(await page.getByRole("button", { name: "Send verification email" }).count()).toBe(0);
    await shot("user-verified");
    const grace = (
      (await (await apiFetch(`/users?query=grace`, { headers: serverHeaders })).json()) as {
        items: { primary_email_verified: boolean }[];
      }
    ).items[0]!;
    expect(grace.primary_email_verified).toBe(true);
  });

  it("adds a 429 fault rule, and the next request fails in the request log with the rule as its why", async () => {
    await tab("Faults");
    await page.getByLabel("Path under /api/v1").fill("/users/me");
    await page.getByLabel("Status", { exact: true }).fill("429");
    await page.getByLabel("Retry-After").fill("2");
    await page.getByRole("button", { name: "Add rule" }).click();
    await page.getByTestId("faults").getByText("status 429 (Retry-After 2)").waitFor();
    const failed = await apiFetch("/users/me", { headers: clientHeaders });
    expect(failed.status).toBe(429);
    expect(failed.headers.get("retry-after")).toBe("2");
    await tab("Requests");
    const row = page.getByTestId("requests").locator('tr[data-status="429"]').first();
    await row.waitFor();
    expect(await row.textContent()).toMatch(/fault rule [0-9a-f-]{36} \(any method \/users\/me\): forced status 429/);
    await shot("requests");
  });

  it("advances the clock past the reset code's hour, and the code's expiry shows in the log", async () => {
    // A password-reset code triggered through the API, as an app would; its code read from the outbox over HTTP.
    const sent = await apiFetch("/auth/password/send-reset-code", {
      headers: clientHeaders,
      json: { email: EMAIL, callback_url: "http://localhost:3000/handler/password-reset" },
    });
    expect(sent.status).toBe(200);
    const reset = await controlClient({ baseUrl: cli.url }).call("waitForEmail", {
      query: { to: EMAIL, kind: "password_reset", timeoutMs: 10_000 },
    });
    const clock = page.getByTestId("clock-now");
    const before = Number(await clock.getAttribute("data-millis"));
    await page.getByRole("button", { name: "+1 day" }).click();
    await expect
      .poll(async () => Number(await clock.getAttribute("data-millis")) - before)
      .toBeGreaterThanOrEqual(86_400_000);
    const check = await apiFetch("/auth/password/reset/check-code", {
      headers: clientHeaders,
      json: { code: reset.code },
    });
    expect(check.headers.get("x-stack-known-error")).toBe("VERIFICATION_CODE_EXPIRED");
    await page
      .getByTestId("requests")
      .getByText(/op checkResetCode: VERIFICATION_CODE_EXPIRED/)
      .waitFor();
    await shot("clock");
  });

  it("exports a snapshot, and importing it brings back a deleted user", async () => {
    await tab("Snapshots");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export snapshot" }).click(),
    ]);
    const file = join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    expect(download.suggestedFilename()).toBe("authsim-snapshot.json");
    const grace = (
      (await (await apiFetch(`/users?query=grace`, { headers: serverHeaders })).json()) as { items: { id: string }[] }
    ).items[0]!;
    expect((await apiFetch(`/users/${grace.id}`, { method: "DELETE", headers: serverHeaders })).status).toBe(200);
    await page.getByLabel("Import snapshot").setInputFiles(file);
    await page.getByRole("status").getByText("Restored the snapshot authsim-snapshot.json.").waitFor();
    await tab("Users");
    await page.getByTestId("users").getByRole("cell", { name: EMAIL }).waitFor();
    await shot("snapshot-restored");
    expect(pageErrors).toEqual([]);
  });

  const env = () => ({ cli, browser, page, pageErrors });
  fitSuite(env, settingsSuite(env));
});
