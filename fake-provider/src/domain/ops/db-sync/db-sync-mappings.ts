import type { CellValue, ColumnSpec, DbSyncMapping } from "./db-sync-columns.ts";
import { emailOutboxMapping } from "./db-sync-email-outboxes.ts";

export type { CellValue, ColumnSpec, ColumnType, DbSyncMapping } from "./db-sync-columns.ts";

/**
 * What the real service's external database sync writes into a project's own PostgreSQL (`dbSync.externalDatabases`):
 * one table per mapping, in this order, each with these columns (names, types, nullability and the primary key are
 * the real service's; docs/emulator.md, "External database sync"). A mapping's rows are read from the emulator's tables;
 * the sequencer (db-sync-sequencer.ts) gives each new or changed row a sequence id, and a row gone a tombstone.
 *
 * A column marked `firstSeen` may have no time in the emulator's records (permission grants saved before they kept
 * their time): it is then the instant the sequencer first saw the row. A column marked `assignedId` is an id the
 * emulator's record has no need of (a notification preference is keyed by user and category): a UUID the sequencer
 * draws when it first sees the row.
 */

const json = (value: unknown): CellValue => ({ json: value ?? {} });
const metadataColumns: ColumnSpec[] = [
  { name: "client_metadata", type: "jsonb", required: true, default: "'{}'::jsonb" },
  { name: "client_read_only_metadata", type: "jsonb", required: true, default: "'{}'::jsonb" },
  { name: "server_metadata", type: "jsonb", required: true, default: "'{}'::jsonb" },
];
const falseByDefault = (name: string): ColumnSpec => ({ name, type: "boolean", required: true, default: "false" });
const createdAt: ColumnSpec = { name: "created_at", type: "timestamp", required: true };

function byProject<T extends { projectId: string }>(
  records: Iterable<T>,
  projectId: string,
  row: (record: T) => [string, (CellValue | undefined)[]] | null,
): Map<string, (CellValue | undefined)[]> {
  const out = new Map<string, (CellValue | undefined)[]>();
  for (const record of records) {
    if (record.projectId !== projectId) continue;
    const entry = row(record);
    if (entry) out.set(entry[0], entry[1]);
  }
  return out;
}

export const dbSyncMappings: readonly DbSyncMapping[] = [
  {
    id: "users",
    table: "users",
    key: ["id"],
    columns: [
      { name: "id", type: "uuid", required: true },
      { name: "display_name", type: "text" },
      { name: "profile_image_url", type: "text" },
      { name: "primary_email", type: "text" },
      falseByDefault("primary_email_verified"),
      { name: "signed_up_at", type: "timestamp", required: true },
      ...metadataColumns,
      falseByDefault("is_anonymous"),
    ],
    rows: (t, projectId) =>
      byProject(t.users.values(), projectId, (u) => [
        u.id,
        [
          u.id,
          u.displayName,
          u.profileImageUrl,
          u.primaryEmail,
          u.primaryEmail !== null && u.primaryEmailVerified,
          u.signedUpAtMillis,
          json(u.clientMetadata),
          json(u.clientReadOnlyMetadata),
          json(u.serverMetadata),
          u.isAnonymous,
        ],
      ]),
  },
  {
    id: "contact_channels",
    table: "contact_channels",
    key: ["id"],
    columns: [
      { name: "id", type: "uuid", required: true },
      { name: "user_id", type: "uuid", required: true },
      { name: "type", type: "text", required: true },
      { name: "value", type: "text", required: true },
      falseByDefault("is_primary"),
      falseByDefault("is_verified"),
      falseByDefault("used_for_auth"),
      createdAt,
    ],
    rows: (t, projectId) =>
      byProject(t.contactChannels.values(), projectId, (c) => [
        c.id,
        // The real service's channel type is its enum's name, upper case.
        [c.id, c.userId, c.type.toUpperCase(), c.value, c.isPrimary, c.isVerified, c.usedForAuth, c.createdAtMillis],
      ]),
  },
  {
    id: "teams",
    table: "teams",
    key: ["id"],
    columns: [
      { name: "id", type: "uuid", required: true },
      { name: "display_name", type: "text", required: true },
      { name: "profile_image_url", type: "text" },
      createdAt,
      ...metadataColumns,
    ],
    rows: (t, projectId) =>
      byProject(t.teams.values(), projectId, (team) => [
        team.id,
        [
          team.id,
          team.displayName,
          team.profileImageUrl,
          team.createdAtMillis,
          json(team.clientMetadata),
          json(team.clientReadOnlyMetadata),
          json(team.serverMetadata),
        ],
      ]),
  },
  {
    id: "team_member_profiles",
    table: "team_member_profiles",
    key: ["team_id", "user_id"],
    columns: [
      { name: "team_id", type: "uuid", required: true },
      { name: "user_id", type: "uuid", required: true },
      { name: "display_name", type: "text" },
      { name: "profile_image_url", type: "text" },
      createdAt,
    ],
    rows: (t, projectId) =>
      byProject(t.teamMemberships.values(), projectId, (m) => {
        const key = `${m.teamId}:${m.userId}`;
        // The member's own name and picture in the team, not the user's (the real row's are the membership's own).
        const profile = t.teamMemberProfiles.get(key);
        return [
          key,
          [m.teamId, m.userId, profile?.displayName ?? null, profile?.profileImageUrl ?? null, m.createdAtMillis],
        ];
      }),
  },
  {
    id: "team_permissions",
    table: "team_permissions",
    key: ["team_id", "user_id", "permission_id"],
    columns: [
      { name: "team_id", type: "uuid", required: true },
      { name: "user_id", type: "uuid", required: true },
      { name: "permission_id", type: "text", required: true },
      { ...createdAt, firstSeen: true },
    ],
    rows: (t, projectId) =>
      byProject(t.teamPermissionGrants.values(), projectId, (g) => [
        `${g.teamId}:${g.userId}:${g.permissionId}`,
        [g.teamId, g.userId, g.permissionId, g.createdAtMillis],
      ]),
  },
  {
    id: "team_invitations",
    table: "team_invitations",
    key: ["id"],
    columns: [
      { name: "id", type: "uuid", required: true },
      { name: "team_id", type: "uuid", required: true },
      { name: "team_display_name", type: "text", required: true },
      { name: "recipient_email", type: "text", required: true },
      { name: "expires_at_millis", type: "bigint", required: true },
      createdAt,
    ],
    rows: (t, projectId) =>
      byProject(t.verificationCodes.values(), projectId, (code) => {
        if (code.purpose !== "team_invitation") return null;
        const teamId = String(code.data.team_id);
        return [
          code.id,
          [
            code.id,
            teamId,
            t.teams.get(teamId)?.displayName ?? "",
            String(code.data.recipient_email),
            code.expiresAtMillis,
            code.createdAtMillis,
          ],
        ];
      }),
  },
  emailOutboxMapping,
  {
    id: "project_permissions",
    table: "project_permissions",
    key: ["user_id", "permission_id"],
    columns: [
      { name: "user_id", type: "uuid", required: true },
      { name: "permission_id", type: "text", required: true },
      { ...createdAt, firstSeen: true },
    ],
    rows: (t, projectId) =>
      byProject(t.projectPermissionGrants.values(), projectId, (g) => [
        `${g.userId}:${g.permissionId}`,
        [g.userId, g.permissionId, g.createdAtMillis],
      ]),
  },
  {
    id: "notification_preferences",
    table: "notification_preferences",
    key: ["id"],
    columns: [
      { name: "id", type: "uuid", required: true, assignedId: true },
      { name: "user_id", type: "uuid", required: true },
      { name: "notification_category_id", type: "text", required: true },
      { name: "enabled", type: "boolean", required: true, default: "true" },
    ],
    rows: (t, projectId) =>
      byProject(t.notificationPreferences.values(), projectId, (p) => [
        `${p.userId}:${p.categoryId}`,
        [undefined, p.userId, p.categoryId, p.enabled],
      ]),
  },
  {
    id: "refresh_tokens",
    table: "refresh_tokens",
    key: ["id"],
    columns: [
      { name: "id", type: "uuid", required: true },
      { name: "user_id", type: "uuid", required: true },
      createdAt,
      { name: "last_used_at", type: "timestamp", required: true },
      falseByDefault("is_impersonation"),
      { name: "expires_at", type: "timestamp" },
    ],
    rows: (t, projectId) =>
      byProject(t.sessions.values(), projectId, (s) => [
        s.id,
        [s.id, s.userId, s.createdAtMillis, s.lastUsedAtMillis, s.isImpersonation, s.expiresAtMillis],
      ]),
  },
  {
    id: "connected_accounts",
    table: "connected_accounts",
    key: ["id"],
    columns: [
      { name: "id", type: "uuid", required: true },
      { name: "user_id", type: "uuid", required: true },
      { name: "provider", type: "text", required: true },
      { name: "provider_account_id", type: "text", required: true },
      { name: "email", type: "text" },
      createdAt,
    ],
    rows: (t, projectId) =>
      byProject(t.oauthAccounts.values(), projectId, (a) => [
        a.id,
        [a.id, a.userId, a.providerConfigId, a.providerAccountId, a.email, a.createdAtMillis],
      ]),
  },
];
