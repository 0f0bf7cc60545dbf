import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import { knownError } from "../../errors/known-error.ts";
import type { OAuthProviderConfigRecord } from "../../store/admin-records.ts";
import type { ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";

/**
 * Which OAuth providers a project has enabled (spec §3 "oauth providers"; protocol.md §5.9): the admin surface owns the
 * config field (`config.oauth_providers`, absent = none); this module reads it and seeds the emulator's defaults.
 */

/**
 * What seeded projects get: one shared-keys provider and one with the project's own (mock) client, so both behaviours
 * of spec §8 work offline from the start — shared keys refuse extra scopes and access tokens, own keys allow them. The
 * upstream `internal` project also comes with shared providers (protocol.md §8).
 */
export const defaultOAuthProviders: readonly OAuthProviderConfigRecord[] = [
  { id: "github", type: "shared" },
  {
    id: "google",
    type: "standard",
    client_id: "authsim-mock-google-client-id",
    client_secret: "authsim-mock-google-client-secret",
  },
];

/**
 * The `internal` project's providers as the real service's development seed makes them
 * (STACK_SEED_INTERNAL_PROJECT_OAUTH_PROVIDERS=github,spotify,google,microsoft, each with shared keys): its own e2e
 * suite signs in to the internal project through spotify.
 */
export const internalProjectOAuthProviders: readonly OAuthProviderConfigRecord[] = [
  "github",
  "spotify",
  "google",
  "microsoft",
].map((id) => ({
  id,
  type: "shared" as const,
}));

export function oauthProvidersOf(project: ProjectRecord): readonly OAuthProviderConfigRecord[] {
  return project.config.oauth_providers ?? [];
}

/** The enabled provider with this id, or OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED (spec §8). */
export function requireEnabledProvider(project: ProjectRecord, providerId: string): OAuthProviderConfigRecord {
  const provider = oauthProvidersOf(project).find((p) => p.id === providerId);
  if (!provider) throw knownError("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
  return provider;
}

/** Gives every seeded project without an OAuth provider list the defaults above (called once at seeding). */
export function seedDefaultOAuthProviders(ctx: OpContext): void {
  for (const project of [...ctx.tables.projects.values()]) {
    if (project.config.oauth_providers !== undefined) continue;
    const defaults = project.id === INTERNAL_PROJECT_ID ? internalProjectOAuthProviders : defaultOAuthProviders;
    ctx.tables.projects.set(project.id, {
      ...project,
      config: { ...project.config, oauth_providers: defaults.map((p) => ({ ...p })) },
    });
  }
}
