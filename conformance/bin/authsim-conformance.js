#!/usr/bin/env node
// The `authsim-conformance` command: runs the TypeScript runner through tsx (the workspace ships sources, not a build).
import { register } from "tsx/esm/api";
register();
await import("../src/runner/run.ts");
