export * from "./domains.ts";
