// Node-only helpers for tests against the real dev server (`authsim/testing`): not published; every importer runs under vitest.
export { startCli, type StartedCli } from "./start-cli.ts";
