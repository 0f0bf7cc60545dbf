import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  admin,
  api,
  expectJson,
  freshEmail,
  INTERNAL,
  newProvider,
  type TestProvider,
} from "../../../test-support/api.ts";
import { postgresSkipReason, startPostgres, type PostgresCluster } from "../../../test-support/postgres.ts";

/**
 * The external database sync against a real PostgreSQL (a throwaway cluster, test-support/postgres.ts): users written,
 * updated and deleted appear, change and go in the project's own database; the progress table follows; a database that
 * cannot be reached reports its error and holds nothing up.
 */

const skip = postgresSkipReason();
let cluster: PostgresCluster;
let setup: pg.Client;
const clients: pg.Client[] = [];
let provider: TestProvider;

async function database(name: string): Promise<{ url: string; client: pg.Client }> {
  await setup.query(`CREATE DATABASE "${name}"`);
  const client = new pg.Client({ connectionString: cluster.url(name) });
  await client.connect();
  clients.push(client);
  return { url: cluster.url(name), client };
}

const configure = (databases: Record<string, unknown>, project = admin()) =>
  api(provider, "/internal/config/override/environment", {
    method: "PATCH",
    headers: project,
    json: { config_override_string: JSON.stringify({ "dbSync.externalDatabases": databases }) },
  });

const createUser = async (email: string) =>
  (
    await expectJson<{ id: string }>(
      await api(provider, "/users", { headers: admin(), json: { primary_email: email } }),
      201,
    )
  ).id;

/** Everything due: the sequencer, then each sync (the timed work's rule, docs/emulator.md). */
const settle = () => provider.work.runDue();

const usersIn = async (client: pg.Client) =>
  (await client.query(`SELECT "id", "primary_email", "display_name" FROM "users" ORDER BY "primary_email"`)).rows;

describe.skipIf(skip !== null)(`the external database sync into PostgreSQL${skip ? ` (skipped: ${skip})` : ""}`, () => {
  beforeAll(async () => {
    cluster = await startPostgres();
    setup = new pg.Client({ connectionString: cluster.url() });
    await setup.connect();
  }, 30_000);
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => undefined);
    await setup?.end().catch(() => undefined);
    cluster?.stop();
  });
  afterEach(() => expect(provider.unexpected).toEqual([]));

  it("writes users, then their updates and deletes, and tracks progress in _stack_sync_metadata", async () => {
    provider = newProvider();
    const { url, client } = await database("lifecycle");
    expect((await configure({ main: { type: "postgres", connectionString: url } })).status).toBe(200);
    const ada = freshEmail("ada");
    const bob = freshEmail("bob");
    const adaId = await createUser(ada);
    const bobId = await createUser(bob);
    await settle();
    expect(await usersIn(client)).toEqual(
      [
        { id: adaId, primary_email: ada, display_name: null },
        { id: bobId, primary_email: bob, display_name: null },
      ].sort((a, b) => a.primary_email.localeCompare(b.primary_email)),
    );
    const progress = async () =>
      Number(
        (
          await client.query(
            `SELECT "last_synced_sequence_id" FROM "_stack_sync_metadata" WHERE "mapping_name" = 'users'`,
          )
        ).rows[0].last_synced_sequence_id,
      );
    const first = await progress();
    expect(first).toBeGreaterThan(0);

    await api(provider, `/users/${adaId}`, { method: "PATCH", headers: admin(), json: { display_name: "Ada L." } });
    await api(provider, `/users/${bobId}`, { method: "DELETE", headers: admin() });
    await settle();
    expect(await usersIn(client)).toEqual([{ id: adaId, primary_email: ada, display_name: "Ada L." }]);
    expect(await progress()).toBeGreaterThan(first);
    // The other mappings' tables exist too, readable by anyone and written by the sync alone.
    const tables = (
      await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`)
    ).rows.map((r) => r.table_name);
    expect(tables).toEqual(
      expect.arrayContaining(["_stack_sync_metadata", "contact_channels", "teams", "team_member_profiles", "users"]),
    );
    const channels = (await client.query(`SELECT "user_id", "type", "value" FROM "contact_channels"`)).rows;
    expect(channels).toEqual([{ user_id: adaId, type: "EMAIL", value: ada }]);
  });

  it("reports an unreachable database with its error without holding requests up, and still syncs the others", async () => {
    provider = newProvider();
    const { url, client } = await database("resilient");
    // Port 1 on loopback: refused at once.
    const bad = "postgresql://nobody:secret@127.0.0.1:1/nowhere";
    await configure(
      { bad: { type: "postgres", connectionString: bad }, good: { type: "postgres", connectionString: url } },
      admin({}, INTERNAL),
    );
    const email = freshEmail("internal");
    await api(provider, "/users", { headers: admin({}, INTERNAL), json: { primary_email: email } });
    await settle();
    expect((await usersIn(client)).map((u) => u.primary_email)).toContain(email);

    const status = await expectJson<{
      sync_engine: { external_databases: { id: string; status: string; error: string | null; connection: unknown }[] };
    }>(await api(provider, "/internal/external-db-sync/status", { headers: admin({}, INTERNAL) }));
    const byId = Object.fromEntries(status.sync_engine.external_databases.map((d) => [d.id, d]));
    expect(byId.bad).toMatchObject({
      status: "error",
      error: expect.stringContaining("ECONNREFUSED"),
      connection: {
        redacted: "postgresql://nobody:***@127.0.0.1:1/nowhere",
        host: "127.0.0.1",
        port: 1,
        user: "nobody",
      },
    });
    expect(byId.good).toMatchObject({ status: "ok", error: null });
  });
});
