#!/usr/bin/env node
await import("../dist/cli16/cli.js");
