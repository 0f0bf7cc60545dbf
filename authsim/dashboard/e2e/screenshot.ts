import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

/** Where the browser suites leave their screenshots (authsim/test-artifacts/screenshots/). */
export const screenshotsDir = fileURLToPath(new URL("../../test-artifacts/screenshots/", import.meta.url));

/**
 * A screenshot, kept as an artifact for a person to look at; the suites' assertions never read it. Full height unless
 * the page is a long one (the API reference: 10 MB and past Playwright's 15 s default in CI at full height, with the
 * email tests rendering on the other core); a shot gets 60 s all the same.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  { dir = screenshotsDir, fullPage = true }: { dir?: string; fullPage?: boolean } = {},
): Promise<void> {
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage, timeout: 60_000 });
}
