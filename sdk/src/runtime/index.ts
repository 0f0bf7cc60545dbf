export * from "./clock.ts";
export * from "./ids.ts";
