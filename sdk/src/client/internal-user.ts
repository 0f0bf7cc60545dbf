import { INTERNAL_PROJECT_ID } from "../contract/headers.ts";
import { adminProjectUpdateToWire, type AdminProjectCreateOptions } from "../project-admin/project-options.ts";
import type { AdminProjectJson } from "../contract/areas/projects.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { openOwnedProject, type AdminOwnedProject } from "./owned-projects.ts";
import { asClient } from "../transport/operation-call.ts";

/**
 * What users of the `internal` project can do besides (sdk-surface.md §9d, spec §6): create, list and transfer the
 * projects their teams own. Each owned project comes with an admin app for it that authenticates with this user's
 * session (a project-owner session) and, as spec §5 requires, has no token store of its own (the admin layer makes it:
 * owned-projects.ts).
 */

export type { AdminOwnedProject };

export interface InternalUserExtra {
  createProject(options: AdminProjectCreateOptions): Promise<AdminOwnedProject>;
  transferProject(projectId: string, newTeamId: string): Promise<void>;
  listOwnedProjects(): Promise<AdminOwnedProject[]>;
}

function ownedProject(ctx: AppContext, session: Session, json: AdminProjectJson): Promise<AdminOwnedProject> {
  return openOwnedProject(ctx.appOptions, () => session.getAccessToken(), json);
}

export function internalUserExtra(ctx: AppContext, session: Session): InternalUserExtra | Record<string, never> {
  if (ctx.projectId !== INTERNAL_PROJECT_ID) return {};
  const me = { session } as const;
  return {
    async createProject(options) {
      const { teamId, isDevelopmentEnvironment, requirePublishableClientKey: _ignored, ...update } = options;
      const body = {
        ...adminProjectUpdateToWire(update),
        display_name: update.displayName,
        owner_team_id: teamId,
        ...(isDevelopmentEnvironment !== undefined ? { is_development_environment: isDevelopmentEnvironment } : {}),
      };
      const json = await asClient.json(ctx.transport, "createOwnedProject", { ...me, body });
      const project = await ownedProject(ctx, session, json);
      if (options.requirePublishableClientKey !== undefined)
        await project.update({ requirePublishableClientKey: options.requirePublishableClientKey });
      return project;
    },
    async transferProject(projectId, newTeamId) {
      await asClient.send(ctx.transport, "transferProject", {
        ...me,
        body: { project_id: projectId, new_team_id: newTeamId },
      });
    },
    async listOwnedProjects() {
      const { items } = await asClient.json(ctx.transport, "listOwnedProjects", me);
      return Promise.all(items.map((json) => ownedProject(ctx, session, json)));
    },
  };
}
