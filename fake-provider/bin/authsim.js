#!/usr/bin/env node
// The `authsim` command: runs the TypeScript CLI through tsx (the workspace ships sources, not a build).
import { register } from "tsx/esm/api";
register();
await import("../src/cli.ts");
