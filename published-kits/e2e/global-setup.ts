import { existsSync } from "node:fs";
import { kitApps, prepareApp } from "./kit-apps.ts";

// CHROMIUM_PATH of @authsim/fake-provider/testing, which the global setup cannot import (see kit-apps.ts).
const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Once per test run in which the published kits' browser tests take part: each app's own `npm ci` (when its
 * node_modules is missing or from another lockfile) and build (when missing or stale), started here in the background
 * and not awaited. Vitest runs every project's global setup before any test, so waiting here would hold up the whole
 * suite; instead the work overlaps the other projects' tests (these run last: `sequence.groupOrder` in
 * vitest.config.ts), and each test file waits for its own app (prepareApp's lock). The teardown waits for the work, so
 * no npm or build outlives the run. Nothing to do when Chromium is absent and the tests will be skipped; in CI (CI=true)
 * they fail on their own for that.
 */
export default function setup(): () => Promise<void> {
  if (!existsSync(CHROMIUM_PATH)) return async () => {};
  // One after the other: two installs or builds at once on two cores take longer than in turn.
  const work = (async () => {
    for (const app of Object.values(kitApps)) {
      const started = performance.now();
      try {
        const { installed, built } = await prepareApp(app);
        const did = [installed && "installed", built && "built"].filter(Boolean).join(" and ");
        if (did)
          console.log(`published-kits/${app.name}: ${did} in ${Math.round((performance.now() - started) / 1000)} s`);
      } catch {
        // The app's test file tries again and reports the failure with the test that needs the app.
      }
    }
  })();
  return () => work;
}
