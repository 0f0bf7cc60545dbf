// The worker thread's entry when the emulator runs from its TypeScript sources (quickjs-engine.ts): in Node 20 a worker
// does not inherit the loader hooks of the thread that started it (nor take `--import` in its execArgv), so it registers
// tsx — already a dependency, for the CLI — for itself, then loads the worker.
import { register } from "tsx/esm/api";

register();
await import("./quickjs-worker.ts");
