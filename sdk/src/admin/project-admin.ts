import { z } from "zod";
import { type AdminProjectJson } from "../contract/areas/projects.ts";
import { type ConfigLevel } from "../contract/areas/project-admin.ts";
import type { AppContext } from "../client/app-context.ts";
import { productionModeErrors, type ProductionModeError } from "../urls/domains.ts";
import { adminProjectFromJson, type AdminProject } from "./projects.ts";
import { adminProjectUpdateToWire, type AdminProjectUpdateOptions } from "../project-admin/project-options.ts";
import { AppConfigError } from "../client/app-config-error.ts";
import { asServer } from "../transport/operation-call.ts";

/**
 * The admin's project with its calls (sdk-surface.md §17, §18): update, delete, the config and its overrides, and the
 * production-mode checks of spec §5 (computed here from the project, with the one domain module).
 */

export interface ManagedAdminProject extends AdminProject {
  readonly logoDarkModeUrl: string | null | undefined;
  readonly logoFullDarkModeUrl: string | null | undefined;
  readonly onboardingStatus: string | undefined;
  update(options: AdminProjectUpdateOptions): Promise<void>;
  delete(): Promise<void>;
  /** The complete config (GET /internal/config). */
  getConfig(): Promise<Record<string, unknown>>;
  /** Merges an override into the environment level (dotted keys, e.g. {"auth.allowSignUp": false}). */
  updateConfig(override: Record<string, unknown>): Promise<void>;
  getConfigOverride(level: ConfigLevel): Promise<Record<string, unknown>>;
  replaceConfigOverride(level: ConfigLevel, config: Record<string, unknown>): Promise<void>;
  /** Spec §5's checks, computed from this snapshot of the project (as the published SDK does, async). */
  getProductionModeErrors(): Promise<ProductionModeError[]>;
}

const parseConfigString = (s: string) => z.record(z.string(), z.unknown()).parse(JSON.parse(s));

async function writeOverride(
  ctx: AppContext,
  level: ConfigLevel,
  method: "PATCH" | "PUT",
  config: Record<string, unknown>,
): Promise<void> {
  // A branch PUT must say where the config came from (GET /internal/config/source); the kit pushes from no known place.
  const source = level === "branch" ? { source: { type: "pushed-from-unknown" as const } } : {};
  const params = { level };
  await (method === "PATCH"
    ? asServer.send(ctx.transport, "updateConfigOverrideLevel", {
        params,
        body: { config_override_string: JSON.stringify(config) },
      })
    : asServer.send(ctx.transport, "replaceConfigOverride", {
        params,
        body: { config_string: JSON.stringify(config), ...source },
      }));
}

/**
 * The admin view with its calls. Spec §5: the project id in the JSON must match the app's, or the JSON belongs to
 * another project and using it would act on the wrong one.
 */
export function managedAdminProjectFromJson(ctx: AppContext, json: AdminProjectJson): ManagedAdminProject {
  if (json.id !== ctx.projectId) {
    throw new AppConfigError(
      "PROJECT_ID_MISMATCH",
      `The project ID of the provided project JSON (${json.id}) does not match the project ID of the app (${ctx.projectId}).`,
    );
  }
  const project = adminProjectFromJson(json);
  const { config } = project;
  return {
    ...project,
    logoDarkModeUrl: json.logo_dark_mode_url,
    logoFullDarkModeUrl: json.logo_full_dark_mode_url,
    onboardingStatus: json.onboarding_status,
    async update(options) {
      const { requirePublishableClientKey, ...rest } = options;
      const wire = adminProjectUpdateToWire(rest);
      if (Object.keys(wire).length > 0) await asServer.send(ctx.transport, "updateAdminProject", { body: wire });
      if (requirePublishableClientKey !== undefined) {
        await writeOverride(ctx, "project", "PATCH", {
          "project.requirePublishableClientKey": requirePublishableClientKey,
        });
      }
    },
    async delete() {
      await asServer.send(ctx.transport, "deleteAdminProject", {});
    },
    async getConfig() {
      return parseConfigString((await asServer.json(ctx.transport, "getConfig", {})).config_string);
    },
    updateConfig: (override) => writeOverride(ctx, "environment", "PATCH", override),
    async getConfigOverride(level) {
      return parseConfigString(
        (await asServer.json(ctx.transport, "getConfigOverride", { params: { level } })).config_string,
      );
    },
    replaceConfigOverride: (level, replacement) => writeOverride(ctx, level, "PUT", replacement),
    getProductionModeErrors: async () =>
      productionModeErrors({ allowLocalhost: config.allowLocalhost, domains: json.config.domains, projectId: json.id }),
  };
}

export async function getManagedAdminProject(ctx: AppContext): Promise<ManagedAdminProject> {
  return managedAdminProjectFromJson(ctx, await asServer.json(ctx.transport, "getAdminProject", {}));
}
