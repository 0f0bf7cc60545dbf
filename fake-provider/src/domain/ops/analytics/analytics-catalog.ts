/**
 * What the real service's ClickHouse user (`limited_user`) sees: the project's tables in `default` (views its row
 * policy limits to the project and branch), the `analytics_internal` tables behind them and ClickHouse's `system` and
 * `information_schema` tables, with their columns' names and types (analysis reads them before access is checked, so
 * a misspelt column of a table the user may not read is answered as misspelt, as ClickHouse does), and the grants.
 * Column lists of system tables are ClickHouse's where a refusal prints them; the others hold the columns this
 * emulation knows (marked partial).
 */

export interface TableSchema {
  /** Column name → ClickHouse type, in the table's order. */
  columns: readonly (readonly [string, string])[];
  /** Only some of the table's columns are listed (a `*` over it could not be answered as ClickHouse would). */
  partial?: true;
}

const DT = "DateTime64(3, 'UTC')";
const NS = "Nullable(String)";
const NDT = `Nullable(${DT})`;
const IDS: [string, string][] = [
  ["project_id", "String"],
  ["branch_id", "String"],
];

/** The project's tables, as their views in `default` show them (the sync bookkeeping columns left out). */
export const PROJECT_TABLES: Record<string, TableSchema> = {
  connected_accounts: {
    columns: [
      ...IDS,
      ["user_id", "UUID"],
      ["provider", "String"],
      ["provider_account_id", "String"],
      ["created_at", DT],
    ],
  },
  contact_channels: {
    columns: [
      ...IDS,
      ["id", "UUID"],
      ["user_id", "UUID"],
      ["type", "LowCardinality(String)"],
      ["value", "String"],
      ["is_primary", "UInt8"],
      ["is_verified", "UInt8"],
      ["used_for_auth", "UInt8"],
      ["created_at", DT],
    ],
  },
  email_outboxes: {
    columns: [
      ...IDS,
      ["id", "UUID"],
      ["status", "LowCardinality(String)"],
      ["simple_status", "LowCardinality(String)"],
      ["created_with", "LowCardinality(String)"],
      ["email_draft_id", NS],
      ["email_programmatic_call_template_id", NS],
      ["theme_id", NS],
      ["is_high_priority", "UInt8"],
      ["is_transactional", "Nullable(UInt8)"],
      ["subject", NS],
      ["notification_category_id", NS],
      ["started_rendering_at", NDT],
      ["rendered_at", NDT],
      ["render_error", NS],
      ["scheduled_at", DT],
      ["created_at", DT],
      ["updated_at", DT],
      ["started_sending_at", NDT],
      ["server_error", NS],
      // Delivery tracking: when the mail provider reported each.
      ..."delivered_at opened_at clicked_at unsubscribed_at marked_as_spam_at bounced_at delivery_delayed_at"
        .split(" ")
        .map((name): [string, string] => [name, NDT]),
      ["can_have_delivery_info", "Nullable(UInt8)"],
      ["skipped_reason", "LowCardinality(Nullable(String))"],
      ["skipped_details", NS],
      ["send_retries", "Int32"],
      ["is_paused", "UInt8"],
    ],
  },
  events: {
    columns: [
      ["event_type", "LowCardinality(String)"],
      ["event_at", DT],
      ["data", "JSON"],
      ...IDS,
      ["user_id", NS],
      ["team_id", NS],
      ["refresh_token_id", NS],
      ["session_replay_id", NS],
      ["session_replay_segment_id", NS],
      ["created_at", DT],
    ],
  },
  notification_preferences: {
    columns: [...IDS, ["user_id", "UUID"], ["notification_category_id", "String"], ["enabled", "UInt8"]],
  },
  project_permissions: { columns: [...IDS, ["user_id", "UUID"], ["id", "String"], ["created_at", DT]] },
  refresh_tokens: {
    columns: [
      ...IDS,
      ["id", "UUID"],
      ["user_id", "UUID"],
      ["created_at", DT],
      ["last_used_at", DT],
      ["is_impersonation", "UInt8"],
      ["expires_at", NDT],
    ],
  },
  team_invitations: {
    columns: [
      ...IDS,
      ["id", "UUID"],
      ["team_id", "UUID"],
      ["team_display_name", "String"],
      ["recipient_email", "String"],
      ["expires_at_millis", "Int64"],
      ["created_at", DT],
    ],
  },
  team_member_profiles: {
    columns: [
      ...IDS,
      ["team_id", "UUID"],
      ["user_id", "UUID"],
      ["display_name", NS],
      ["profile_image_url", NS],
      ["created_at", DT],
    ],
  },
  team_permissions: {
    columns: [...IDS, ["team_id", "UUID"], ["user_id", "UUID"], ["id", "String"], ["created_at", DT]],
  },
  teams: {
    columns: [
      ...IDS,
      ["id", "UUID"],
      ["display_name", "String"],
      ["profile_image_url", NS],
      ["created_at", DT],
      ["client_metadata", "String"],
      ["client_read_only_metadata", "String"],
      ["server_metadata", "String"],
    ],
  },
  users: {
    columns: [
      ...IDS,
      ["id", "UUID"],
      ["display_name", NS],
      ["profile_image_url", NS],
      ["primary_email", NS],
      ["primary_email_verified", "UInt8"],
      ["signed_up_at", DT],
      ["client_metadata", "String"],
      ["client_read_only_metadata", "String"],
      ["server_metadata", "String"],
      ["is_anonymous", "UInt8"],
      ["restricted_by_admin", "UInt8"],
      ["restricted_by_admin_reason", NS],
      ["restricted_by_admin_private_details", NS],
    ],
  },
};

const names = (list: string): [string, string][] => list.split(" ").map((name) => [name, "String"]);

/** Tables outside `default`, by `database.table`. */
export const OTHER_TABLES: Record<string, TableSchema> = {
  ...Object.fromEntries(Object.entries(PROJECT_TABLES).map(([name, schema]) => [`analytics_internal.${name}`, schema])),
  "system.one": { columns: [["dummy", "UInt8"]] },
  "system.numbers": { columns: [["number", "UInt64"]] },
  "system.tables": { partial: true, columns: names("database name uuid engine is_temporary") },
  "system.databases": { partial: true, columns: names("name engine data_path metadata_path uuid comment") },
  "system.current_roles": { columns: names("role_name with_admin_option is_default") },
  "system.enabled_roles": { columns: names("role_name with_admin_option is_current is_default") },
  "system.users": {
    columns: names(
      "name id storage auth_type auth_params host_ip host_names host_names_regexp host_names_like default_roles_all " +
        "default_roles_list default_roles_except grantees_any grantees_list grantees_except default_database",
    ),
  },
  "system.processes": {
    columns: names(
      "is_initial_query user query_id address port initial_user initial_query_id initial_address initial_port " +
        "interface os_user client_hostname client_name client_revision client_version_major client_version_minor " +
        "client_version_patch http_method http_user_agent http_referer forwarded_for quota_key distributed_depth " +
        "elapsed is_cancelled is_all_data_sent read_rows read_bytes total_rows_approx written_rows written_bytes " +
        "memory_usage peak_memory_usage query normalized_query_hash query_kind thread_ids ProfileEvents Settings " +
        "current_database",
    ),
  },
  "system.dictionaries": {
    columns: names(
      "database name uuid status origin type key.names key.types attribute.names attribute.types bytes_allocated " +
        "hierarchical_index_bytes_allocated query_count hit_rate found_rate element_count load_factor source " +
        "lifetime_min lifetime_max loading_start_time last_successful_update_time error_count loading_duration " +
        "last_exception comment",
    ),
  },
  "system.query_log": {
    partial: true,
    columns: names(
      "type event_date event_time query_start_time query_duration_ms read_rows read_bytes written_rows result_rows " +
        "memory_usage current_database query formatted_query normalized_query_hash query_kind databases tables " +
        "columns exception_code exception stack_trace is_initial_query user query_id address port",
    ),
  },
  "information_schema.tables": {
    columns: names(
      "table_catalog table_schema table_name table_type table_rows data_length index_length table_collation " +
        "table_comment TABLE_CATALOG TABLE_SCHEMA TABLE_NAME TABLE_TYPE TABLE_ROWS DATA_LENGTH TABLE_COLLATION " +
        "TABLE_COMMENT",
    ),
  },
};

/** The user's name and the system tables it may read (its ClickHouse role grants SELECT on exactly these). */
export const CLICKHOUSE_USER = "limited_user";
export const READABLE_SYSTEM_TABLES = [
  "aggregate_function_combinators",
  "collations",
  "columns",
  "contributors",
  "current_roles",
  "data_type_families",
  "database_engines",
  "databases",
  "enabled_roles",
  "formats",
  "functions",
  "licenses",
  "one",
  "privileges",
  "quota_usage",
  "settings",
  "table_engines",
  "table_functions",
  "tables",
  "time_zones",
];
/** Table engines whose use the role revokes (SHOW GRANTS WITH IMPLICIT lists them). */
export const REVOKED_TABLE_ENGINES =
  "AzureBlobStorage Distributed File HDFS Hive JDBC Kafka MongoDB MySQL NATS ODBC PostgreSQL RabbitMQ Redis S3 SQLite URL".split(
    " ",
  );

/** Whether the user may read `database.table` (default: the project's tables; system: the granted ones). */
export function mayRead(database: string, table: string): boolean {
  if (database === "default") return Object.hasOwn(PROJECT_TABLES, table);
  return database === "system" && READABLE_SYSTEM_TABLES.includes(table);
}

/** A table's schema by database and name, or null when ClickHouse has no such table. */
export function schemaOf(database: string, table: string): TableSchema | null {
  if (database === "default") return Object.hasOwn(PROJECT_TABLES, table) ? PROJECT_TABLES[table]! : null;
  const key = `${database}.${table}`;
  return Object.hasOwn(OTHER_TABLES, key) ? OTHER_TABLES[key]! : null;
}

/**
 * The privilege a table function needs, which the role does not have (ClickHouse checks it when the function is
 * resolved): the source it reads, or CREATE TEMPORARY TABLE for the functions that make one.
 */
export const TABLE_FUNCTION_GRANTS: Record<string, string> = {
  file: "READ ON FILE",
  url: "READ ON URL",
  s3: "READ ON S3",
  s3cluster: "READ ON S3",
  remote: "READ ON REMOTE",
  remotesecure: "READ ON REMOTE",
  cluster: "READ ON REMOTE",
  clusterallreplicas: "READ ON REMOTE",
  jdbc: "READ ON JDBC",
  odbc: "READ ON ODBC",
  mysql: "READ ON MYSQL",
  postgresql: "READ ON POSTGRES",
  hdfs: "READ ON HDFS",
  executable: "CREATE TEMPORARY TABLE ON *.*",
  input: "CREATE TEMPORARY TABLE ON *.*",
};

/** A column name as ClickHouse prints it in a grant: backquoted unless a plain identifier. */
export function grantColumn(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name}\``;
}

/** ClickHouse's ACCESS_DENIED text for a missing grant. */
export function notEnoughPrivileges(grant: string): string {
  return `${CLICKHOUSE_USER}: Not enough privileges. To execute this query, it's necessary to have the grant ${grant}`;
}
