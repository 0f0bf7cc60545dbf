import { adminProjectView, clientProjectView } from "../../domain/views/projects.ts";
import { ok, type RouteTable } from "./define.ts";

/** Projects (protocol.md §6.5). The admin configuration endpoints arrive with the admin-surface issue. */
export const projectRoutes: RouteTable = {
  getCurrentProject: { handler: ({ auth }) => ok(clientProjectView(auth.project)) },
  getAdminProject: { handler: ({ auth }) => ok(adminProjectView(auth.project)) },
};
