#!/usr/bin/env node
// The `authsim-conformance` command: the runner from the package's build (dist/), which hands the built suites to vitest.
// In the monorepo, `npm run conformance -w @authsim/conformance -- …` runs the sources (or `npm run build` first).
await import("../dist/runner/run.js");
