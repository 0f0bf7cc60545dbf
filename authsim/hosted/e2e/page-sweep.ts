import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";

/**
 * Every page at a desktop and a phone width: a screenshot of each (`<name>-<width>.png`) and whether the document is
 * wider than the window (a horizontal scroll: `scrollWidth > innerWidth`). One page and one load per name; the
 * narrow view is the same page resized, so a sweep costs one navigation per page.
 */
export const SWEEP_WIDTHS = [1280, 360] as const;

export interface PageSweep {
  /** Opens `url`, waits for its heading, and shoots it at each width; answers the files written. */
  page(name: string, url: string): Promise<string[]>;
  /** The page as it is now, at each width. */
  here(name: string): Promise<string[]>;
  /** `<name>@<width>: <scrollWidth> > <innerWidth>` for each view that scrolled sideways. */
  readonly overflowing: string[];
}

export function pageSweep(page: Page, dir: string): PageSweep {
  const overflowing: string[] = [];
  const here = async (name: string): Promise<string[]> => {
    await mkdir(dir, { recursive: true });
    const files: string[] = [];
    const height = page.viewportSize()?.height ?? 900;
    for (const width of SWEEP_WIDTHS) {
      await page.setViewportSize({ width, height });
      await page.waitForFunction((w) => window.innerWidth === w, width);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      if (scrollWidth > innerWidth) overflowing.push(`${name}@${width}: ${scrollWidth} > ${innerWidth}`);
      const file = join(dir, `${name}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      files.push(file);
    }
    await page.setViewportSize({ width: SWEEP_WIDTHS[0], height });
    return files;
  };
  return {
    overflowing,
    here,
    async page(name, url) {
      await page.goto(url);
      // Each page has its title as the first heading once it has rendered (the handler's pages, /app, the provider's).
      await page.locator("h1").first().waitFor();
      // A page that loads its data shows a status line meanwhile: shoot the page, not the loading line.
      await page.waitForFunction(
        () => !document.querySelector("[data-authsim-loading]") && !document.body.textContent?.includes("Loading…"),
      );
      return await here(name);
    },
  };
}

/** The hosted pages a signed-out visitor can open (name, path), each swept at both widths. */
export const SIGNED_OUT_PAGES = [
  ["app-signed-out", "/app"],
  ["sign-in", "/handler/sign-in"],
  ["sign-up", "/handler/sign-up"],
  ["forgot-password", "/handler/forgot-password"],
  ["password-reset", "/handler/password-reset"],
  ["email-verification", "/handler/email-verification"],
  ["magic-link-callback", "/handler/magic-link-callback"],
  ["oauth-callback", "/handler/oauth-callback"],
  ["error", "/handler/error?errorCode=OAUTH_PROVIDER_ACCESS_DENIED"],
  ["mfa", "/handler/mfa"],
  ["not-found", "/handler/no-such-page"],
] as const;

/** The pages of a signed-in user (name, path, and for account settings the side-menu entry the fragment selects). */
export const SIGNED_IN_PAGES = [
  ["app-signed-in", "/app", null],
  ["account-settings-profile", "/handler/account-settings", "Profile"],
  ["account-settings-sign-in", "/handler/account-settings#sign-in", "Emails & sign-in"],
  ["account-settings-notifications", "/handler/account-settings#notifications", "Notifications"],
  ["account-settings-sessions", "/handler/account-settings#sessions", "Active sessions"],
  ["account-settings-api-keys", "/handler/account-settings#api-keys", "API keys"],
  ["account-settings-teams", "/handler/account-settings#teams", "Teams"],
  ["account-settings-account", "/handler/account-settings#account", "Sign out & delete"],
  ["team-invitation", "/handler/team-invitation", null],
  ["cli-auth-confirm", "/handler/cli-auth-confirm", null],
] as const;
