// Node-only helpers for browser tests: @authsim/fake-provider/testing (the dev server's own, startCli, is authsim/testing).
export {
  CHROMIUM_PATH,
  chromiumAvailability,
  launchChromium,
  type ChromiumAvailability,
  type LaunchedBrowser,
} from "./chromium.ts";
// Registers vitest suites: only for test files (this folder is not published, and every importer runs under vitest).
export { describeInChromium } from "./chromium-suite.ts";
