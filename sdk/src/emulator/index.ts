export * from "./control-schemas.ts";
export * from "./control-contract.ts";
export * from "./control-client.ts";
