import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

/**
 * Debian's Chromium driven by playwright-core, as react/src/e2e/chromium.ts does it (copied, not imported: the React
 * package's test support is its own). Skipped locally when the browser is absent; in CI (CI=true) that is a failure.
 */
export const CHROMIUM_PATH = "/usr/bin/chromium";

export type ChromiumAvailability = { run: true } | { run: false; fail: boolean; reason: string };

export function chromiumAvailability(env: Record<string, string | undefined> = process.env, path = CHROMIUM_PATH): ChromiumAvailability {
  if (existsSync(path)) return { run: true };
  const reason = `${path} is absent (install Debian's chromium package: apt-get install -y chromium)`;
  return { run: false, fail: env.CI === "true", reason };
}

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<LaunchedBrowser> {
  // A fresh profile per run: no cookies, storage or service workers carried over.
  const userDataDir = await mkdtemp(join(tmpdir(), "authsim-dashboard-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1400, height: 900 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
