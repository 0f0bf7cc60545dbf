import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import type { StartedCli } from "authsim/testing";
import { projectApi, type ProjectKeys } from "./project-api.ts";
import { saveScreenshot } from "./screenshot.ts";
import { isRefusalLog, type SuiteEnv } from "./settings-suite.ts";

/**
 * Every dashboard tab and the emulator's own pages at 1280 and 360 px wide, with no horizontal scroll, each
 * screenshotted into authsim/test-artifacts/screenshots/. Registered inside dashboard.browser.test.ts after the
 * Settings suite, on the project that suite made (so the pages show its users, payments and outbox).
 */
/** Every tab, and what shows once its data is in (so the screenshot and the width check see the filled page). */
const TABS: Record<string, string> = {
  projects: '[data-testid="env-lines"]',
  settings: '[data-testid="settings-diff-empty"]',
  users: '[data-testid="users"] tbody tr',
  teams: '[data-testid="teams"] tbody tr',
  permissions: 'main td code:text-is("team_admin")',
  items: 'main option[value="gems"]',
  outbox: '[data-testid="outbox"] tbody tr',
  requests: '[data-testid="requests"] tbody tr',
  faults: '[data-testid="faults"]',
  snapshots: 'main button:text("Export snapshot")',
};

export function fitSuite(env: () => SuiteEnv, project: () => ProjectKeys): void {
  let cli: StartedCli;
  let page: Page;
  const { call, newUser } = projectApi(() => cli.url, project);

  beforeAll(() => {
    ({ cli, page } = env());
  });

  it("fits the emulator's own pages at 1280 and 360 px too: the API reference, payments onboarding and a checkout", async () => {
    const setup = await call("admin", "POST", "/internal/payments/setup", {});
    expect(setup.status).toBe(200);
    const buyer = await newUser("checkout.fit@example.com");
    const purchase = await call("server", "POST", "/payments/purchases/create-purchase-url", {
      customer_type: "user",
      customer_id: buyer,
      product_id: "gem-pack",
    });
    expect(purchase.status).toBe(200);
    const pages: Record<string, string> = {
      "api-reference": `${cli.url}/__emulator/api-reference`,
      "payments-onboarding": setup.body.url as string,
      checkout: purchase.body.url as string,
    };
    const overflowing: string[] = [];
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, url] of Object.entries(pages)) {
        const answer = await page.goto(url);
        expect(answer?.status(), url).toBe(200);
        const [scrollWidth, innerWidth] = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          window.innerWidth,
        ]);
        if (scrollWidth > innerWidth) overflowing.push(`${name} at ${width}px: ${scrollWidth} > ${innerWidth}`);
        await saveScreenshot(page, `emulator-${name}-${width}`, { fullPage: name !== "api-reference" });
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(overflowing).toEqual([]);
  });

  it("fits every tab at 1280 and 360 px wide, with no horizontal scroll", async () => {
    const overflowing: string[] = [];
    // The hash routes the tabs: no reload between them, each tab's data is read when it mounts.
    await page.goto(`${cli.url}/#projects`);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [tab, ready] of Object.entries(TABS)) {
        await page.evaluate((t) => (location.hash = t), tab);
        await page.locator(ready).first().waitFor({ state: "attached" });
        // The selected email's HTML renders in a frame of its own.
        if (tab === "outbox") await page.frameLocator('iframe[title="Email body"]').locator("body *").first().waitFor();
        const [scrollWidth, innerWidth] = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          window.innerWidth,
        ]);
        if (scrollWidth > innerWidth) overflowing.push(`${tab} at ${width}px: ${scrollWidth} > ${innerWidth}`);
        await saveScreenshot(page, `dashboard-${tab}-${width}`);
      }
    }
    expect(overflowing).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(env().pageErrors.filter((e) => !isRefusalLog(e))).toEqual([]);
  });
}
