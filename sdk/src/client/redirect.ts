import { constants } from "../contract/headers.ts";
import type { Sleep } from "../runtime/clock.ts";

/**
 * Navigation (sdk-surface.md §2, redirectMethod). "window" navigates the browser; "none" never navigates (server code);
 * an object's navigate(to) hands the URL to the app's router. Defaults to "window" in a browser, "none" elsewhere.
 */
export type RedirectMethod = "window" | "none" | { navigate(to: string): void | Promise<void> };

interface WindowLike {
  location: { assign(url: string): void; origin?: string };
}

function browserWindow(): WindowLike | undefined {
  return (globalThis as { window?: WindowLike }).window;
}

export interface Redirector {
  readonly method: RedirectMethod;
  /** Whether a redirect can actually happen (false for "none"). */
  canRedirect(): boolean;
  /** Navigates, or throws a clear error when this app cannot navigate. */
  redirectTo(url: string): Promise<void>;
  /** Navigates when possible; a no-op for "none" (after sign-in/out in server code nothing is navigated). */
  redirectIfPossible(url: string): Promise<void>;
  /** The URL made absolute against the page's origin, when there is one. */
  absolute(url: string): string | null;
}

export function createRedirector(method: RedirectMethod | undefined, sleep: Sleep): Redirector {
  const resolved: RedirectMethod = method ?? (browserWindow() ? "window" : "none");
  async function redirectTo(url: string): Promise<void> {
    if (resolved === "none") {
      throw new Error(
        `Cannot redirect to ${url}: this app's redirectMethod is "none". Pass redirectMethod, or handle the missing user yourself.`,
      );
    }
    if (resolved === "window") {
      const win = browserWindow();
      if (!win)
        throw new Error(
          `Cannot redirect to ${url}: redirectMethod "window" needs a browser window (none exists here, e.g. in Node).`,
        );
      win.location.assign(url);
      // Give the browser time to leave the page before the caller goes on (spec §2: redirect pause of 2 s).
      await sleep(constants.redirectPauseMillis);
      return;
    }
    await resolved.navigate(url);
  }
  return {
    method: resolved,
    canRedirect: () => resolved !== "none" && (resolved !== "window" || browserWindow() !== undefined),
    redirectTo,
    async redirectIfPossible(url) {
      if (resolved !== "none") await redirectTo(url);
    },
    absolute(url) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return url;
      const origin = browserWindow()?.location.origin;
      return origin ? new URL(url, origin).toString() : null;
    },
  };
}
