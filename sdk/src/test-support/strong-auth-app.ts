import { manualClock } from "../runtime/clock.ts";
import { seededRandom } from "../runtime/ids.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import type { StackClientAppOptions } from "../client/app-options.ts";
import { memoryCookieDocument, memoryStorage, type BrowserEnvironment } from "../client/browser-env.ts";
import { StackClientApp } from "../client/client-app.ts";
import { fakeFetch, recordingSleep, type Responder } from "./fake-fetch.ts";
import { claims, TEST_USER_ID, unsignedToken } from "./tokens.ts";

/**
 * A client app for the strong-auth tests (client/strong-auth*.test.ts) over a scripted fetch, with a page, cookies,
 * session storage, navigation, warnings and sleeps it records.
 */

export const T0 = 1_750_000_000_000;
export const tokens = {
  access_token: unsignedToken(claims(T0, 600_000)),
  refresh_token: "rt-1",
  user_id: TEST_USER_ID,
};

/** Answers in turn, the last one repeating (per route, unlike sequence(), which counts every call). */
export function inTurn(...answers: (() => Response)[]): () => Response {
  let i = 0;
  return () => answers[Math.min(i++, answers.length - 1)]!();
}

export function strongAuthApp(
  responder: Responder,
  extra: Partial<StackClientAppOptions> = {},
  browser: Partial<BrowserEnvironment> = {},
) {
  const ff = fakeFetch(responder);
  const sleep = recordingSleep();
  const navigated: string[] = [];
  const warnings: string[] = [];
  const page = { url: "http://localhost:3000/handler/oauth-callback" };
  const cookies = memoryCookieDocument();
  const sessionStorage = memoryStorage();
  const env = {
    currentUrl: () => page.url,
    replaceUrl: (url: string) => void (page.url = url),
    warn: (m: string) => void warnings.push(m),
    alert: (m: string) => void warnings.push(`alert: ${m}`),
    ...browser,
    cookies,
    sessionStorage,
  };
  const app = new StackClientApp({
    projectId: "internal",
    publishableClientKey: "pck",
    baseUrl: "http://api.test",
    tokenStore: memoryTokenStore(),
    fetch: ff.fetch,
    clock: manualClock(T0),
    sleep: sleep.sleep,
    random: seededRandom("strong-auth"),
    redirectMethod: { navigate: (to) => void navigated.push(to) },
    browser: env,
    ...extra,
  });
  return { app, calls: ff.calls, waits: sleep.waits, navigated, warnings, page, env };
}
