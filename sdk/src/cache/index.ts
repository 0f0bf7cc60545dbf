export * from "./async-cache.ts";
export * from "./rate-limiter.ts";
export * from "./timers.ts";
