export * from "./transport.ts";
export * from "./headers.ts";
export * from "./backoff.ts";
