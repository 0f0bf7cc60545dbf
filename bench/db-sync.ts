import { performance } from "node:perf_hooks";
import pg from "pg";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { createFakeProvider } from "@authsim/fake-provider";
import { postgresBin, startPostgres } from "../fake-provider/src/test-support/postgres.ts";

/**
 * The external database sync's rate into a real PostgreSQL (issue 26): a provider holding `users` users is pointed at
 * an empty database of a throwaway cluster (Debian's PostgreSQL, as the tests use it), and the timed work is run until
 * every user is a row there; then every user is renamed and the work run until every row shows it. Rows per second
 * of each phase, the provider and PostgreSQL on this machine.
 */

export type DbSyncRate =
  | { users: number; initialRowsPerSecond: number; updateRowsPerSecond: number; initialMillis: number }
  | { reason: string };

const headers = (level: "server" | "admin") => ({
  "x-stack-access-type": level,
  "x-stack-project-id": dev.id,
  ...(level === "server"
    ? { "x-stack-secret-server-key": dev.keys.secret_server_key }
    : { "x-stack-super-secret-admin-key": dev.keys.super_secret_admin_key }),
  "content-type": "application/json",
});

export async function dbSyncRate(users = 2_000): Promise<DbSyncRate> {
  if (postgresBin() === null) return { reason: "PostgreSQL is not installed (no initdb; apt-get install postgresql)" };
  const cluster = await startPostgres();
  const setup = new pg.Client({ connectionString: cluster.url() });
  const provider = createFakeProvider({ onUnexpectedError: (e) => console.error(e) });
  let client: pg.Client | null = null;
  try {
    await setup.connect();
    await setup.query(`CREATE DATABASE "bench"`);
    client = new pg.Client({ connectionString: cluster.url("bench") });
    await client.connect();
    const call = async (path: string, level: "server" | "admin", method: string, body: unknown) => {
      const response = await provider.fetch(`http://localhost:8102/api/v1${path}`, {
        method,
        headers: headers(level),
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id?: string };
    };
    const ids: string[] = [];
    for (let i = 0; i < users; i++)
      ids.push((await call("/users", "server", "POST", { primary_email: `bench-${i}@example.com` })).id!);
    await call("/internal/config/override/environment", "admin", "PATCH", {
      config_override_string: JSON.stringify({
        "dbSync.externalDatabases": { bench: { type: "postgres", connectionString: cluster.url("bench") } },
      }),
    });
    const count = async (where: string) => {
      try {
        return Number((await client!.query(`SELECT count(*) AS n FROM "users" ${where}`)).rows[0].n);
      } catch {
        return 0; // the table is made by the first sync
      }
    };
    /** Runs the due work until `done` holds (at most 10,000 rounds); answers the milliseconds it took. */
    const until = async (done: () => Promise<boolean>) => {
      const started = performance.now();
      for (let round = 0; round < 10_000 && !(await done()); round++) await provider.work.runDue();
      return performance.now() - started;
    };
    const initialMillis = await until(async () => (await count("")) >= users);
    for (const [i, id] of ids.entries())
      await call(`/users/${id}`, "server", "PATCH", { display_name: `renamed ${i}` });
    const updateMillis = await until(async () => (await count(`WHERE "display_name" LIKE 'renamed %'`)) >= users);
    return {
      users,
      initialMillis,
      initialRowsPerSecond: (users / initialMillis) * 1000,
      updateRowsPerSecond: (users / updateMillis) * 1000,
    };
  } finally {
    provider.work.stop();
    await client?.end().catch(() => undefined);
    await setup.end().catch(() => undefined);
    cluster.stop();
  }
}
