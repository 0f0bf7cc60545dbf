export * from "./errors.ts";
export * from "./headers.ts";
export * from "./operations.ts";
export * from "./areas/common.ts";
export * from "./areas/teams.ts";
export * from "./areas/users.ts";
export * from "./areas/sessions.ts";
export * from "./areas/projects.ts";
