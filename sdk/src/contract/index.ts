export * from "./errors.ts";
export * from "./headers.ts";
export * from "./operations.ts";
export * from "./requests.ts";
export * from "./responses.ts";
export * from "./areas/index.ts";
export * from "./operation-calls.ts";
export * from "./path-params.ts";
