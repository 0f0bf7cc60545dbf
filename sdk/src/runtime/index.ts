export * from "./clock.ts";
export * from "./ids.ts";
export * from "./provider-marks.ts";
export * from "./base64.ts";
export * from "./wildcard.ts";
