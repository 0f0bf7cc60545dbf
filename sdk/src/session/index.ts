export * from "./access-token.ts";
export * from "./token-store.ts";
export * from "./cookie-store.ts";
export * from "./request-token-store.ts";
export * from "./resolve-store.ts";
export * from "./session.ts";
export * from "./admin-session.ts";
export * from "./token-endpoint.ts";
