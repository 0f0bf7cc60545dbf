import {
  createOwnedProject,
  listOwnedProjects,
  requireInternalUser,
  transferProject,
} from "../../domain/ops/projects/owned-projects.ts";
import { deleteProject, updateAdminProject } from "../../domain/ops/projects/project-admin.ts";
import {
  assertOverrideLevelAccess,
  getWrittenOverride,
  getSource,
  parseOverride,
  resetOverrideKeys,
  unlinkSource,
  writeOverride,
} from "../../domain/ops/config/project-config.ts";
import { renderConfig } from "../../domain/ops/config/config-render.ts";
import { adminProjectView } from "../../domain/views/projects.ts";
import { created, ok, success, type RouteTable } from "./define.ts";

/** Project administration (protocol.md §5.9, §6.5): the admin's project, owned projects, and the config endpoints. */
export const projectAdminRoutes: RouteTable = {
  updateAdminProject: {
    handler: ({ auth, ctx, body }) => ok(adminProjectView(updateAdminProject(ctx, auth.project, body))),
  },
  deleteAdminProject: {
    handler: ({ auth, ctx }) => {
      deleteProject(ctx, auth.project);
      return success();
    },
  },
  listOwnedProjects: {
    handler: ({ auth, ctx }) =>
      ok({
        items: listOwnedProjects(ctx, requireInternalUser(auth, "userFirst")).map(adminProjectView),
        is_paginated: false,
      }),
  },
  createOwnedProject: {
    handler: ({ auth, ctx, body }) =>
      created(adminProjectView(createOwnedProject(ctx, requireInternalUser(auth, "userFirst"), body))),
  },
  transferProject: {
    handler: ({ auth, ctx, body }) => {
      transferProject(ctx, requireInternalUser(auth), body);
      return ok({ success: "true" });
    },
  },
  getConfig: { handler: ({ auth, ctx }) => ok({ config_string: JSON.stringify(renderConfig(ctx, auth.project)) }) },
  getConfigOverride: {
    handler: ({ auth, ctx, params }) => {
      assertOverrideLevelAccess(auth.type, params.level);
      return ok({ config_string: JSON.stringify(getWrittenOverride(ctx, auth.project.id, params.level)) });
    },
  },
  // The older path without a level writes the environment override, as the published SDK's updateConfig does.
  updateConfigOverride: {
    handler: ({ auth, ctx, body }) => {
      writeOverride(ctx, auth.project, "environment", parseOverride(body.config_override_string), "merge");
      return success();
    },
  },
  updateConfigOverrideLevel: {
    handler: ({ auth, ctx, params, body }) => {
      assertOverrideLevelAccess(auth.type, params.level);
      writeOverride(ctx, auth.project, params.level, parseOverride(body.config_override_string), "merge");
      return success();
    },
  },
  getConfigSource: { handler: ({ auth, ctx }) => ok({ source: getSource(ctx, auth.project.id) }) },
  unlinkConfigSource: {
    handler: ({ auth, ctx }) => {
      unlinkSource(ctx, auth.project.id);
      return success();
    },
  },
  resetConfigOverrideKeys: {
    handler: ({ auth, ctx, params, body }) => {
      resetOverrideKeys(ctx, auth.project, params.level, body.keys);
      return success();
    },
  },
  replaceConfigOverride: {
    handler: ({ auth, ctx, params, body }) => {
      assertOverrideLevelAccess(auth.type, params.level);
      writeOverride(ctx, auth.project, params.level, parseOverride(body.config_string), "replace", body.source);
      return success();
    },
  },
};
