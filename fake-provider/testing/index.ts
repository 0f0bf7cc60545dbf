// Node-only helpers for browser tests against the real dev server: @authsim/fake-provider/testing.
export { CHROMIUM_PATH, chromiumAvailability, launchChromium, type ChromiumAvailability, type LaunchedBrowser } from "./chromium.ts";
// Registers vitest suites: only for test files (this folder is not published, and every importer runs under vitest).
export { describeInChromium } from "./chromium-suite.ts";
export { startCli, type StartedCli } from "./start-cli.ts";
