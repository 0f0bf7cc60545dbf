import type { ExternalDbConnection } from "./db-sync-engine.ts";

/**
 * What Node gets for `#db-sync-client` (package.json "imports"): a real PostgreSQL connection with `pg`. Bounded, so a
 * database that never answers holds only its own sync: 10 s to connect, 30 s a statement.
 */
export async function openExternalDb(connectionString: string): Promise<ExternalDbConnection> {
  // Imported on the first sync, not with the emulator: pg and its protocol code are some 120 KB of the dev server's
  // bundle that every start parsed and ran, for a feature few projects configure (issue 30).
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000, query_timeout: 30_000 });
  // A connection the server drops later emits an error; the query that needed it fails with it already.
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    query: async (text, params) => ({ rows: (await client.query(text, params)).rows as Record<string, unknown>[] }),
    end: () => client.end(),
  };
}
