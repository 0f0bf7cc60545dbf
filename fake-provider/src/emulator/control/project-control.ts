import type { z } from "zod";
import type {
  FixtureProjectConfig,
  ProjectEntry,
  ProjectKeys,
  projectCreateBody,
  projectPatchBody,
} from "@authsim/sdk/emulator";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import type { FakeProvider } from "../../provider.ts";
import type { OpContext } from "../../domain/ops/context.ts";
import { runOp } from "../../domain/run-op.ts";
import { emulatorProjectKey } from "../../domain/ops/projects/internal-api-keys.ts";
import { seedDefaultOAuthProviders } from "../../domain/ops/oauth/oauth-config.ts";
import { seedProject } from "../../domain/ops/projects/projects.ts";
import type { ProjectRecord } from "../../domain/store/records.ts";

/**
 * Emulator-only project management: create a project with fresh (or given) keys, and change its name and config.
 * The dashboard's "new project" button and fixture loading on an emulator use it; a hosted provider creates projects
 * through its own dashboard, which has no public API with fixed keys. The bodies and the answer are the control
 * contract's (@authsim/sdk/emulator).
 */

export class ProjectControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The project list entry of GET /__emulator/projects: what an app's env needs. */
export function projectEntry(provider: FakeProvider, project: ProjectRecord): ProjectEntry {
  const keys = [...provider.store.read.apiKeySets.values()].find(
    (k) => k.projectId === project.id && k.secretServerKey !== null,
  );
  return {
    id: project.id,
    display_name: project.displayName,
    description: project.description,
    publishable_client_key: keys?.publishableClientKey ?? null,
    secret_server_key: keys?.secretServerKey ?? null,
    super_secret_admin_key: keys?.superSecretAdminKey ?? null,
  };
}

/** The same shape as internal API keys (domain/ops/projects/internal-api-keys.ts): a prefix, the `authsim` marker and 224 random bits. */
const freshKeys = (ctx: OpContext): ProjectKeys => ({
  publishable_client_key: emulatorProjectKey(ctx.random, "pck"),
  secret_server_key: emulatorProjectKey(ctx.random, "ssk"),
  super_secret_admin_key: emulatorProjectKey(ctx.random, "sak"),
});

const withConfig = (project: ProjectRecord, config: FixtureProjectConfig | undefined): ProjectRecord =>
  config
    ? {
        ...project,
        config: { ...project.config, ...Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)) },
      }
    : project;

export function createProject(provider: FakeProvider, body: z.infer<typeof projectCreateBody>): Promise<ProjectRecord> {
  return runOp(provider, (ctx) => {
    const id = body.id ?? uuid(ctx.random);
    if (ctx.tables.projects.has(id)) throw new ProjectControlError(409, `Project ${id} already exists.`);
    const seeded = seedProject(ctx, {
      id,
      display_name: body.display_name,
      ...(body.description ? { description: body.description } : {}),
      keys: body.keys ?? freshKeys(ctx),
      config: {},
    });
    const project = withConfig(seeded, body.config);
    ctx.tables.projects.set(id, project);
    // The same defaults a seeded project gets (seed.ts): the mock identity provider's OAuth providers.
    seedDefaultOAuthProviders(ctx);
    return ctx.tables.projects.get(id)!;
  });
}

export function updateProject(
  provider: FakeProvider,
  id: string,
  body: z.infer<typeof projectPatchBody>,
): Promise<ProjectRecord> {
  return runOp(provider, (ctx) => {
    const project = ctx.tables.projects.get(id);
    if (!project || id === INTERNAL_PROJECT_ID) throw new ProjectControlError(404, `No project ${id}.`);
    const next = withConfig(
      {
        ...project,
        ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
      },
      body.config,
    );
    ctx.tables.projects.set(id, next);
    return next;
  });
}
