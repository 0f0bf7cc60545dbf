export * from "./known-error.ts";
export * from "./result.ts";
export * from "./sdk-errors.ts";
export * from "./decode.ts";
