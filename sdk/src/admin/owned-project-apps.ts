import { registerOwnedProjectOpener } from "../client/owned-projects.ts";
import type { StackAdminApp } from "./admin-app.ts";
import type { ManagedAdminProject } from "./project-admin.ts";

/**
 * Gives the client layer the admin app an `internal` user's owned projects come with (client/owned-projects.ts says
 * why the client cannot import it). The package entry (src/index.ts) imports this module for its effect, and
 * sdk/package.json lists both in "sideEffects" so a bundler keeps them for a client-only bundle.
 */

declare module "../client/owned-projects.ts" {
  interface OwnedProjectTypes {
    project: ManagedAdminProject;
    app: StackAdminApp;
  }
}

registerOwnedProjectOpener(async (o, ownerSession, json) => {
  // Loaded when first needed, as before the inversion: a client-only bundle keeps the admin app in a chunk of its own.
  const { StackAdminApp: AdminApp } = await import("./admin-app.ts");
  const app = new AdminApp({
    projectId: json.id,
    ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}),
    ...(o.fetch !== undefined ? { fetch: o.fetch } : {}),
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
    ...(o.sleep !== undefined ? { sleep: o.sleep } : {}),
    ...(o.random !== undefined ? { random: o.random } : {}),
    ...(o.isOnline !== undefined ? { isOnline: o.isOnline } : {}),
    ...(o.extraRequestHeaders !== undefined ? { extraRequestHeaders: o.extraRequestHeaders } : {}),
    projectOwnerSession: ownerSession,
    tokenStore: null,
  });
  return app.ownedProjectFromJson(json);
});
