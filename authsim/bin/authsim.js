#!/usr/bin/env node
// The `authsim` command: the dev server from the package's build (dist/cli/, one bundle: bundles/bundle-cli.ts), with no
// build step and no writes of its own. In the monorepo, `npm start` runs the sources instead; run `npm run build` first.
await import("../dist/cli/cli.js");
