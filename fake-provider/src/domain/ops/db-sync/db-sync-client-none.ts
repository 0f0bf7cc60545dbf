import type { ExternalDbConnection } from "./db-sync-engine.ts";

/**
 * What a browser (or any runtime without the "node" condition) gets for `#db-sync-client`: no TCP sockets, so no
 * PostgreSQL connection. Every attempt fails as a refused connection would, and the sync and the status endpoint report
 * it as the real service reports a database it cannot reach.
 */
export function openExternalDb(connectionString: string): Promise<ExternalDbConnection> {
  let host = "the database";
  try {
    host = new URL(connectionString).host || host;
  } catch {
    // Not a URL: the generic name will do.
  }
  return Promise.reject(new Error(`connect ECONNREFUSED ${host}: this runtime cannot open PostgreSQL connections`));
}
