#!/usr/bin/env node
// The `authsim` command: the dev server from the package's build (dist/cli/, one bundle: bundles/bundle-cli.ts), with no
// build step and no writes of its own. In the monorepo, `npm start` runs the sources instead; run `npm run build` first.
import { setFlagsFromString } from "node:v8";

// Before the bundle is evaluated: its start-up garbage (parsing, schemas, the seed) stays in V8's first, small young
// generation instead of growing it to its cap, whose pages an idle server would keep (about 5 MiB of idle RSS). The
// server lets it grow once it listens (src/young-generation.ts).
setFlagsFromString("--semi-space-growth-factor=1");
await import("../dist/cli/cli.js");
