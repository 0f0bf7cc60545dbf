import {
  adminProjectUpdate,
  configLevelParams,
  configOverrideReplace,
  configResetKeys,
  configOverrideUpdate,
  ownedProjectCreate,
  projectTransfer,
} from "@authsim/sdk/contract";
import { createOwnedProject, listOwnedProjects, requireInternalUser, transferProject } from "../../domain/ops/owned-projects.ts";
import { deleteProject, updateAdminProject } from "../../domain/ops/project-admin.ts";
import { getOverride, getSource, parseOverride, renderConfig, resetOverrideKeys, unlinkSource, writeOverride } from "../../domain/ops/project-config.ts";
import { adminProjectView } from "../../domain/views/projects.ts";
import { created, ok, route, success, type AnyRouteSpec } from "./define.ts";

/** Project administration (protocol.md §5.9, §6.5): the admin's project, owned projects, and the config endpoints. */
export const projectAdminRoutes: Record<string, AnyRouteSpec> = {
  updateAdminProject: route({
    body: adminProjectUpdate,
    handler: ({ auth, ctx, body }) => ok(adminProjectView(updateAdminProject(ctx, auth!.project, body))),
  }),
  deleteAdminProject: route({
    handler: ({ auth, ctx }) => {
      deleteProject(ctx, auth!.project);
      return success();
    },
  }),
  listOwnedProjects: route({
    handler: ({ auth, ctx }) => ok({ items: listOwnedProjects(ctx, requireInternalUser(auth!)).map(adminProjectView), is_paginated: false }),
  }),
  createOwnedProject: route({
    body: ownedProjectCreate,
    handler: ({ auth, ctx, body }) => created(adminProjectView(createOwnedProject(ctx, requireInternalUser(auth!), body))),
  }),
  transferProject: route({
    body: projectTransfer,
    handler: ({ auth, ctx, body }) => {
      transferProject(ctx, requireInternalUser(auth!), body);
      return ok({ success: "true" });
    },
  }),
  getConfig: route({ handler: ({ auth, ctx }) => ok({ config_string: JSON.stringify(renderConfig(ctx, auth!.project)) }) }),
  getConfigOverride: route({
    params: configLevelParams,
    handler: ({ auth, ctx, params }) => ok({ config_string: JSON.stringify(getOverride(ctx, auth!.project.id, params.level)) }),
  }),
  // The older path without a level writes the environment override, as the published SDK's updateConfig does.
  updateConfigOverride: route({
    body: configOverrideUpdate,
    handler: ({ auth, ctx, body }) => {
      writeOverride(ctx, auth!.project, "environment", parseOverride(body.config_override_string), "merge");
      return success();
    },
  }),
  updateConfigOverrideLevel: route({
    params: configLevelParams,
    body: configOverrideUpdate,
    handler: ({ auth, ctx, params, body }) => {
      writeOverride(ctx, auth!.project, params.level, parseOverride(body.config_override_string), "merge");
      return success();
    },
  }),
  getConfigSource: route({ handler: ({ auth, ctx }) => ok({ source: getSource(ctx, auth!.project.id) }) }),
  unlinkConfigSource: route({
    handler: ({ auth, ctx }) => {
      unlinkSource(ctx, auth!.project.id);
      return success();
    },
  }),
  resetConfigOverrideKeys: route({
    params: configLevelParams,
    body: configResetKeys,
    handler: ({ auth, ctx, params, body }) => {
      resetOverrideKeys(ctx, auth!.project, params.level, body.keys);
      return success();
    },
  }),
  replaceConfigOverride: route({
    params: configLevelParams,
    body: configOverrideReplace,
    handler: ({ auth, ctx, params, body }) => {
      writeOverride(ctx, auth!.project, params.level, parseOverride(body.config_string), "replace", body.source);
      return success();
    },
  }),
};
