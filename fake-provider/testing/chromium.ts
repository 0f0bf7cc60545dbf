import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

/**
 * Debian's Chromium driven by playwright-core (no browser is ever downloaded), for every package's browser tests.
 * Locally they are skipped when it is absent; in CI (CI=true) its absence is a failure, since .ci/run installs it.
 */
export const CHROMIUM_PATH = "/usr/bin/chromium";

export type ChromiumAvailability = { run: true } | { run: false; fail: boolean; reason: string };

export function chromiumAvailability(
  env: Record<string, string | undefined> = process.env,
  path = CHROMIUM_PATH,
): ChromiumAvailability {
  if (existsSync(path)) return { run: true };
  const reason = `${path} is absent (install Debian's chromium package: apt-get install -y chromium)`;
  return { run: false, fail: env.CI === "true", reason };
}

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<LaunchedBrowser> {
  // A fresh profile per run: no cookies, storage, passkeys or service workers carried over.
  const userDataDir = await mkdtemp(join(tmpdir(), "authsim-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
    // No sandbox (containers), and nothing that would reach the network: the tests run offline.
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
