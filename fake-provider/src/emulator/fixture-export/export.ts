import {
  FIXTURE_VERSION,
  fixtureProjectConfig,
  type Fixture,
  type FixtureApiKey,
  type FixtureProject,
  type FixtureTeam,
  type FixtureUser,
} from "@authsim/fixtures";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import { isLive } from "../../domain/ops/payments/items.ts";
import type { ProjectApiKeyRecord } from "../../domain/store/account-records.ts";
import type { ProjectRecord, TeamRecord, UserRecord } from "../../domain/store/records.ts";
import type { Tables } from "../../domain/store/store.ts";
import { assignRefs, byKey, omitNullish, slug } from "./refs.ts";
import { catalogueOf, vaultConfigOf } from "../../domain/ops/payments/payments-config.ts";
import { inlineStoredImage } from "../../domain/ops/storage/uploaded-images.ts";

/**
 * The emulator's state as a fixture document (fixtures/src/schema.ts): what `loadFixture` reads, so export → load →
 * export gives the same document but for generated ids. Passwords travel as their hashes and vault values in their
 * stored (encrypted) form; sessions, codes, emails and OAuth links are transient and left out.
 */
export interface ExportOptions {
  /** Only these projects (default: every project but `internal`, the emulator's own). */
  projectIds?: readonly string[];
}

function apiKeys(keys: ProjectApiKeyRecord[]): FixtureApiKey[] | undefined {
  if (keys.length === 0) return undefined;
  return keys.sort(byKey((k) => [k.description, k.expiresAtMillis ?? -1, k.createdAtMillis, k.id])).map((k) => ({
    description: k.description,
    expires_at_millis: k.expiresAtMillis,
    is_public: k.isPublic,
    ...(k.manuallyRevokedAtMillis !== null ? { revoked: true } : {}),
  }));
}

function projectKeys(tables: Tables, projectId: string): FixtureProject["keys"] {
  const set = [...tables.apiKeySets.values()]
    .filter((k) => k.projectId === projectId && k.publishableClientKey && k.secretServerKey && k.superSecretAdminKey)
    .sort(byKey((k) => [k.createdAtMillis, k.id]))[0];
  if (!set) return undefined;
  return {
    publishable_client_key: set.publishableClientKey!,
    secret_server_key: set.secretServerKey!,
    super_secret_admin_key: set.superSecretAdminKey!,
  };
}

function exportProject(tables: Tables, now: number, project: ProjectRecord): FixtureProject {
  const of = <T extends { projectId: string }>(rows: IterableIterator<T>) =>
    [...rows].filter((r) => r.projectId === project.id);
  // Content before the id: users without email or name (anonymous visitors) loaded in the same instant would otherwise
  // be ordered, and so named, by the ids each load generates, and a round trip would swap their refs.
  const content = (u: UserRecord) =>
    JSON.stringify([
      u.isAnonymous,
      u.clientMetadata,
      u.clientReadOnlyMetadata,
      u.serverMetadata,
      inlineStoredImage(tables, u.profileImageUrl),
    ]);
  const users = of(tables.users.values()).sort(
    byKey((u: UserRecord) => [
      u.primaryEmail?.toLowerCase() ?? "\uffff",
      u.displayName ?? "",
      u.signedUpAtMillis,
      content(u),
      u.id,
    ]),
  );
  const teams = of(tables.teams.values()).sort(byKey((t: TeamRecord) => [t.displayName, t.createdAtMillis, t.id]));
  const userRef = assignRefs(
    users,
    (u) => u.primaryEmail?.toLowerCase() ?? slug(u.displayName ?? (u.isAnonymous ? "anonymous" : "user")),
  );
  const teamRef = assignRefs(teams, (t) => slug(t.displayName) || "team");
  const keys = of(tables.projectApiKeys.values());
  const memberships = of(tables.teamMemberships.values());
  const teamGrants = of(tables.teamPermissionGrants.values());
  const projectGrants = of(tables.projectPermissionGrants.values());

  const fixtureUsers: FixtureUser[] = users.map((u) =>
    omitNullish({
      ref: userRef.get(u.id)!,
      id: u.id,
      primary_email: u.primaryEmail,
      ...(u.primaryEmail !== null
        ? { primary_email_verified: u.primaryEmailVerified, primary_email_auth_enabled: u.primaryEmailAuthEnabled }
        : {}),
      display_name: u.displayName,
      profile_image_url: inlineStoredImage(tables, u.profileImageUrl),
      password_hash: u.passwordHash,
      ...(u.isAnonymous ? { is_anonymous: true } : {}),
      client_metadata: u.clientMetadata,
      client_read_only_metadata: u.clientReadOnlyMetadata,
      server_metadata: u.serverMetadata,
      project_permissions: projectGrants
        .filter((g) => g.userId === u.id)
        .map((g) => g.permissionId)
        .sort(),
      selected_team: u.selectedTeamId !== null ? teamRef.get(u.selectedTeamId) : undefined,
      api_keys: apiKeys(keys.filter((k) => k.type === "user" && k.userId === u.id)),
    }),
  );
  const fixtureTeams: FixtureTeam[] = teams.map((t) =>
    omitNullish({
      ref: teamRef.get(t.id)!,
      id: t.id,
      display_name: t.displayName,
      profile_image_url: inlineStoredImage(tables, t.profileImageUrl),
      client_metadata: t.clientMetadata,
      client_read_only_metadata: t.clientReadOnlyMetadata,
      server_metadata: t.serverMetadata,
      members: memberships
        .filter((m) => m.teamId === t.id && userRef.has(m.userId))
        .map((m) => ({
          user: userRef.get(m.userId)!,
          permissions: teamGrants
            .filter((g) => g.teamId === t.id && g.userId === m.userId)
            .map((g) => g.permissionId)
            .sort(),
        }))
        .sort(byKey((m) => [m.user])),
      api_keys: apiKeys(keys.filter((k) => k.type === "team" && k.teamId === t.id)),
    }),
  );

  const definitions = of(tables.permissionDefinitions.values()).sort(byKey((d) => [d.id]));
  const definitionsOf = (scope: "team" | "project") =>
    definitions
      .filter((d) => d.scope === scope)
      .map((d) =>
        omitNullish({ id: d.id, description: d.description, contained_permission_ids: [...d.containedPermissionIds] }),
      );

  const quantities = new Map<string, FixtureProject["items"] & object extends (infer I)[] ? I : never>();
  for (const change of of(tables.itemQuantityChanges.values())) {
    if (!isLive(change, now)) continue;
    const customer =
      change.customerType === "user"
        ? userRef.get(change.customerId)
        : change.customerType === "team"
          ? teamRef.get(change.customerId)
          : change.customerId;
    if (customer === undefined) continue;
    const key = `${change.customerType}\u0000${customer}\u0000${change.itemId}`;
    const entry = quantities.get(key) ?? {
      customer_type: change.customerType,
      customer,
      item_id: change.itemId,
      quantity: 0,
    };
    quantities.set(key, { ...entry, quantity: entry.quantity + change.quantity });
  }
  const items = [...quantities.values()]
    .filter((i) => i.quantity !== 0)
    .sort(byKey((i) => [i.customer_type, i.customer, i.item_id]));

  // The rendered catalogue and stores (base and config overrides, domain/ops/payments/payments-config.ts); left out when empty.
  const catalogue = catalogueOf({ tables }, project);
  const payments =
    Object.keys(catalogue.items).length + Object.keys(catalogue.offers).length > 0
      ? catalogue
      : project.config.payments;
  const vaultConfig = vaultConfigOf({ tables }, project);
  const vault = Object.keys(vaultConfig.stores).length > 0 ? vaultConfig : project.config.data_vault;
  const entries = of(tables.dataVaultEntries.values());
  const config = fixtureProjectConfig.parse(
    Object.fromEntries(
      Object.keys(fixtureProjectConfig.shape).map((k) => [k, project.config[k as keyof ProjectRecord["config"]]]),
    ),
  );

  return omitNullish({
    id: project.id,
    display_name: project.displayName,
    description: project.description,
    keys: projectKeys(tables, project.id),
    config,
    payments,
    data_vault: vault && {
      stores: Object.fromEntries(
        Object.entries(vault.stores).map(([id, store]) => {
          const stored = entries.filter((e) => e.storeId === id).sort(byKey((e) => [e.hashedKey]));
          return [
            id,
            {
              display_name: store.display_name,
              ...(stored.length > 0
                ? { entries: stored.map((e) => ({ hashed_key: e.hashedKey, encrypted_value: e.encryptedValue })) }
                : {}),
            },
          ];
        }),
      ),
    },
    permission_definitions: { team: definitionsOf("team"), project: definitionsOf("project") },
    users: fixtureUsers,
    teams: fixtureTeams,
    items,
  });
}

/** The provider's state as a fixture document (read at the provider's time: item grants may have expired). */
export function exportFixture(
  provider: { store: { read: Tables }; clock: { now(): number } },
  options: ExportOptions = {},
): Fixture {
  const tables = provider.store.read;
  const now = provider.clock.now();
  const projects = [...tables.projects.values()]
    .filter((p) => (options.projectIds ? options.projectIds.includes(p.id) : p.id !== INTERNAL_PROJECT_ID))
    .sort(byKey((p) => [p.createdAtMillis, p.id]));
  return { version: FIXTURE_VERSION, projects: projects.map((p) => exportProject(tables, now, p)) };
}
