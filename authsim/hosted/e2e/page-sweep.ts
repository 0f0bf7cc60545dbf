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
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
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
      await page.waitForFunction(() => !document.querySelector("[data-authsim-loading]") && !document.body.textContent?.includes("Loading…"));
      return await here(name);
    },
  };
}
