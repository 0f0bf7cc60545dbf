import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { controlClient } from "@authsim/sdk/emulator";
import { describeInChromium, launchChromium, type LaunchedBrowser } from "@authsim/fake-provider/testing";
import { startCli, type StartedCli } from "authsim/testing";
import { buildDemo } from "./build-demo.ts";
import { serveDemo, type ServedDemo } from "./serve-demo.ts";

/**
 * The bindings in someone else's app: the demo app built with Vite and served on its own loopback port, against the
 * real dev server (`npm start`) on another, in Debian's Chromium driven by playwright-core. What the hosted pages'
 * test (authsim/hosted/e2e) cannot show: the session lives in the app's cookies, the API is cross-origin, a page
 * that requires a user sends a visitor to sign in and back, and emailed links point at the app. The steps share one
 * browser profile and run in order.
 */
const artifacts = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));
const EMAIL = "ada@example.com";
const PASSWORD = "correct horse battery";

describeInChromium("the demo app in Chromium", () => {
  let dist: string;
  let provider: StartedCli;
  let demo: ServedDemo;
  let browser: LaunchedBrowser;
  let page: Page;
  const pageErrors: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
  const whoami = () => page.getByTestId("whoami").textContent();

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), "authsim-demo-"));
    await mkdir(artifacts, { recursive: true });
    [provider] = await Promise.all([startCli(), buildDemo(dist)]);
    demo = await serveDemo(dist, {
      baseUrl: provider.url,
      projectId: devProjectSeed.id,
      publishableClientKey: devProjectSeed.keys.publishable_client_key,
    });
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (error) => pageErrors.push(error.message));
    // An unhandled async error would show an alert; record it so the test fails with its text.
    page.on("dialog", (dialog) => {
      pageErrors.push(`alert: ${dialog.message()}`);
      void dialog.dismiss();
    });
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    await provider?.stop();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  it("signs up on the sign-up page and lands home, signed in", async () => {
    await page.goto(`${demo.url}/handler/sign-up`);
    await page.getByRole("heading", { name: "Create an account" }).waitFor();
    await shot("sign-up");
    await page.getByLabel("Email", { exact: true }).fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL(`${demo.url}/`);
    await page.getByText(`Signed in as ${EMAIL}`).waitFor();
    expect(await whoami()).toBe(`Signed in as ${EMAIL}`);
    const cookies = await browser.context.cookies(demo.url);
    expect(cookies.map((c) => c.name).sort()).toEqual(["stack-access", `stack-refresh-${devProjectSeed.id}`]);
    await shot("home-signed-in");
    expect(pageErrors).toEqual([]);
  });

  it("signs out from the user button's menu", async () => {
    await page.getByRole("button", { name: EMAIL }).click();
    await shot("user-button-menu");
    await page.getByRole("link", { name: "Sign out" }).click();
    await page.waitForURL(`${demo.url}/`);
    await page.getByText("Not signed in").waitFor();
    expect(await browser.context.cookies(demo.url)).toEqual([]);
  });

  it("sends a signed-out visitor of a page that requires a user to sign-in, and back after signing in", async () => {
    await page.goto(`${demo.url}/handler/sign-out`);
    await page.waitForURL(`${demo.url}/`);
    await page.getByText("Not signed in").waitFor();
    await page.goto(`${demo.url}/protected`);
    await page.waitForURL(/\/handler\/sign-in\?after_auth_return_to=/);
    expect(new URL(page.url()).searchParams.get("after_auth_return_to")).toBe(`${demo.url}/protected`);
    await page.getByLabel("Email", { exact: true }).fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${demo.url}/protected`);
    expect(await page.getByTestId("protected").textContent()).toBe(`Protected page for ${EMAIL}`);
    await shot("protected");
    expect(pageErrors).toEqual([]);
  });

  it("resets a forgotten password through the link in the outbox, then signs in with the new one", async () => {
    await page.goto(`${demo.url}/handler/sign-out`);
    await page.waitForURL(`${demo.url}/`);
    await page.goto(`${demo.url}/handler/sign-in`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email", { exact: true }).fill(EMAIL);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText(/reset link is on its way/).waitFor();
    const mail = await controlClient({ baseUrl: provider.url }).call("waitForEmail", {
      query: { to: EMAIL, kind: "password_reset", timeoutMs: 10_000 },
    });
    expect(mail.link?.startsWith(`${demo.url}/handler/password-reset?`)).toBe(true);
    await page.goto(mail.link ?? "");
    await page.getByLabel("New password", { exact: true }).fill("a brand new secret");
    await page.getByLabel("Repeat password", { exact: true }).fill("a brand new secret");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("Your password has been changed.").waitFor();
    await shot("password-reset");
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email", { exact: true }).fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill("a brand new secret");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${demo.url}/`);
    await page.getByText(`Signed in as ${EMAIL}`).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
