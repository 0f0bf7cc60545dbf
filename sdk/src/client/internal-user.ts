import { adminProject } from "../contract/areas/projects.ts";
import { ownedProjectList } from "../contract/areas/project-admin.ts";
import { INTERNAL_PROJECT_ID } from "../contract/headers.ts";
import type { StackAdminApp } from "../admin/admin-app.ts";
import { adminProjectUpdateToWire, type AdminProjectCreateOptions, type ManagedAdminProject } from "../admin/project-admin.ts";
import type { AdminProjectJson } from "../contract/areas/projects.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { asClient } from "../transport/operation-call.ts";

/**
 * What users of the `internal` project can do besides (sdk-surface.md §9d, spec §6): create, list and transfer the
 * projects their teams own. Each owned project comes with an admin app for it that authenticates with this user's
 * session (a project-owner session) and, as spec §5 requires, has no token store of its own.
 */

export interface AdminOwnedProject extends ManagedAdminProject {
  readonly app: StackAdminApp;
}

export interface InternalUserExtra {
  createProject(options: AdminProjectCreateOptions): Promise<AdminOwnedProject>;
  transferProject(projectId: string, newTeamId: string): Promise<void>;
  listOwnedProjects(): Promise<AdminOwnedProject[]>;
}

async function ownedProject(ctx: AppContext, session: Session, json: AdminProjectJson): Promise<AdminOwnedProject> {
  // Imported when needed: the admin app builds on the client app, so a static import would be circular.
  const { StackAdminApp: AdminApp } = await import("../admin/admin-app.ts");
  const o = ctx.appOptions;
  const app = new AdminApp({
    projectId: json.id,
    ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}),
    ...(o.fetch !== undefined ? { fetch: o.fetch } : {}),
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
    ...(o.sleep !== undefined ? { sleep: o.sleep } : {}),
    ...(o.random !== undefined ? { random: o.random } : {}),
    ...(o.isOnline !== undefined ? { isOnline: o.isOnline } : {}),
    ...(o.extraRequestHeaders !== undefined ? { extraRequestHeaders: o.extraRequestHeaders } : {}),
    projectOwnerSession: () => session.getAccessToken(),
    tokenStore: null,
  });
  return app.ownedProjectFromJson(json);
}

export function internalUserExtra(ctx: AppContext, session: Session): InternalUserExtra | Record<string, never> {
  if (ctx.projectId !== INTERNAL_PROJECT_ID) return {};
  const me = { session } as const;
  return {
    async createProject(options) {
      const { teamId, isDevelopmentEnvironment, requirePublishableClientKey: _ignored, ...update } = options;
      const body = { ...adminProjectUpdateToWire(update), display_name: update.displayName, owner_team_id: teamId, ...(isDevelopmentEnvironment !== undefined ? { is_development_environment: isDevelopmentEnvironment } : {}) };
      const json = await asClient.json(ctx.transport, "createOwnedProject", { ...me, body }, adminProject);
      const project = await ownedProject(ctx, session, json);
      if (options.requirePublishableClientKey !== undefined) await project.update({ requirePublishableClientKey: options.requirePublishableClientKey });
      return project;
    },
    async transferProject(projectId, newTeamId) {
      await asClient.send(ctx.transport, "transferProject", { ...me, body: { project_id: projectId, new_team_id: newTeamId } });
    },
    async listOwnedProjects() {
      const { items } = await asClient.json(ctx.transport, "listOwnedProjects", me, ownedProjectList);
      return Promise.all(items.map((json) => ownedProject(ctx, session, json)));
    },
  };
}
