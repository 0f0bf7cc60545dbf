#!/usr/bin/env node
// The `authsim` command: the dev server from the package's build (dist/cli/: an ES module running the one CommonJS
// bundle through V8's code cache, bundles/bundle-cli.ts), with no build step. Its one write is that cache, in
// node_modules/.cache/authsim (src/bundle-loader.ts). In the monorepo, `npm start` runs the sources instead; run
// `npm run build` first.
await import("../dist/cli/cli.js");
