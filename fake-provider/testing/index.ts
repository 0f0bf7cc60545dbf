// Node-only helpers for browser tests against the real dev server: @authsim/fake-provider/testing.
export { CHROMIUM_PATH, chromiumAvailability, launchChromium, type ChromiumAvailability, type LaunchedBrowser } from "./chromium.ts";
export { startCli, type StartedCli } from "./start-cli.ts";
