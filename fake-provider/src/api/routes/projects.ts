import { adminProjectView, clientProjectView } from "../../domain/views/projects.ts";
import { ok, route, type AnyRouteSpec } from "./define.ts";

/** Projects (protocol.md §6.5). The admin configuration endpoints arrive with the admin-surface issue. */
export const projectRoutes: Record<string, AnyRouteSpec> = {
  getCurrentProject: route({ handler: ({ auth }) => ok(clientProjectView(auth!.project)) }),
  getAdminProject: route({ handler: ({ auth }) => ok(adminProjectView(auth!.project)) }),
};
