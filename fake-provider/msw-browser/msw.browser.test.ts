import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInChromium, launchChromium, type LaunchedBrowser } from "@authsim/fake-provider/testing";
import { buildMswPage, type PageBuild } from "./build.ts";
import { servePage, type ServedPage } from "./serve.ts";

/**
 * The whole emulator inside a real page: page/ is built with Vite (emulator core, msw's setupWorker and our SDK in one
 * bundle), served over loopback with msw's worker script, and opened in Debian's Chromium. The page signs up and reads
 * the user through a provider URL that does not resolve, so only the emulator in the page can have answered.
 */
const artifacts = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

describeInChromium("the emulator behind msw's setupWorker in Chromium", () => {
  let dist: string;
  let built: PageBuild;
  let served: ServedPage;
  let browser: LaunchedBrowser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), "authsim-msw-page-"));
    await mkdir(artifacts, { recursive: true });
    [built, browser] = await Promise.all([buildMswPage(dist), launchChromium()]);
    served = await servePage(dist);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => message.type() === "error" && pageErrors.push(`console: ${message.text()}`));
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  it("bundles the emulator's core for the browser without Node built-ins", () => {
    expect(built.warnings.filter((w) => /externalized for browser compatibility/.test(w))).toEqual([]);
  });

  it("signs up and reads the user with the SDK, answered by the emulator inside the page", async () => {
    await page.goto(`${served.url}/`);
    const status = page.getByTestId("status");
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).not.toBe("starting");
    const result = (await page.getByTestId("result").textContent()) ?? "";
    await page.screenshot({ path: join(artifacts, "msw-setup-worker.png"), fullPage: true });
    expect(await status.textContent(), result).toBe("signed-in");
    const outcome = JSON.parse(result) as Record<string, unknown>;
    expect(outcome).toMatchObject({ email: "ada@example.com", users_in_emulator: 1, node_process_global: false });
    expect(outcome.id).toMatch(/^[0-9a-f-]{36}$/);
    // The verification email went to the in-page outbox, linking to the page's own origin.
    expect(outcome.verification_link).toMatch(
      new RegExp(`^${served.url}/handler/email-verification\\?code=[0-9a-z]{45}$`),
    );
    // Only the page's files came from a server: every API call stayed inside the page.
    expect(served.requested.filter((path) => !path.startsWith("/assets/"))).toEqual(["/", "/mockServiceWorker.js"]);
    expect(pageErrors).toEqual([]);
  });
});
