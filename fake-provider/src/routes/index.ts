import type { AnyRouteSpec } from "./define.ts";
import { metaRoutes } from "./meta.ts";
import { projectRoutes } from "./projects.ts";
import { sessionRoutes } from "./sessions.ts";
import { userRoutes } from "./users.ts";

/** Every implemented operation, by contract operation id. Operations absent here answer 501. */
export const implementedRoutes: Record<string, AnyRouteSpec> = {
  ...metaRoutes,
  ...sessionRoutes,
  ...userRoutes,
  ...projectRoutes,
};
