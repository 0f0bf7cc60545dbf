import { createServer, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  admin,
  api,
  DEV,
  expectJson,
  expectKnownError,
  freshEmail,
  INTERNAL,
  newProvider,
  type TestProvider,
} from "../../../test-support/api.ts";

/**
 * The six /internal/external-db-sync/* routes in process, and the pipeline's rules that need no database: the fusebox
 * holds sync requests back, the cron endpoints' checks come in the real order, and a database that never answers holds
 * no request up. Syncing into a real PostgreSQL: db-sync.postgres.test.ts.
 */

let provider: TestProvider;
afterEach(() => expect(provider.unexpected).toEqual([]));

const internalAdmin = admin({}, INTERNAL);
const text = async (response: Response) => ({ status: response.status, body: await response.text() });
const configure = (databases: Record<string, unknown>, headers = admin()) =>
  api(provider, "/internal/config/override/environment", {
    method: "PATCH",
    headers,
    json: { config_override_string: JSON.stringify({ "dbSync.externalDatabases": databases }) },
  });
const refused = { main: { type: "postgres", connectionString: "postgresql://u:p@127.0.0.1:1/none" } };

describe("the fusebox", () => {
  it("answers the internal project's admins only, both switches on until set, and keeps what is set", async () => {
    provider = newProvider();
    await expectKnownError(
      await api(provider, "/internal/external-db-sync/fusebox", { headers: admin() }),
      "EXPECTED_INTERNAL_PROJECT",
      401,
    );
    expect(
      await expectJson(await api(provider, "/internal/external-db-sync/fusebox", { headers: internalAdmin })),
    ).toEqual({ ok: true, sequencer_enabled: true, poller_enabled: true });
    const set = await api(provider, "/internal/external-db-sync/fusebox", {
      headers: internalAdmin,
      json: { sequencer_enabled: true, poller_enabled: false },
    });
    expect(await expectJson(set)).toEqual({ ok: true, sequencer_enabled: true, poller_enabled: false });
    expect(
      await expectJson(await api(provider, "/internal/external-db-sync/fusebox", { headers: internalAdmin })),
    ).toEqual({ ok: true, sequencer_enabled: true, poller_enabled: false });
    await expectKnownError(
      await api(provider, "/internal/external-db-sync/fusebox", {
        headers: internalAdmin,
        json: { poller_enabled: true },
      }),
      "SCHEMA_ERROR",
      400,
    );
  });

  it("with the poller off, sync requests wait (and the status counts them); turned on, they are sent", async () => {
    provider = newProvider();
    await api(provider, "/internal/external-db-sync/fusebox", {
      headers: internalAdmin,
      json: { sequencer_enabled: true, poller_enabled: false },
    });
    await configure(refused, internalAdmin);
    await api(provider, "/users", { headers: internalAdmin, json: { primary_email: freshEmail("held") } });
    await provider.work.runDue();
    // scope=all: no live database check, only the counts.
    const status = async () =>
      expectJson<{ poller: { pending: string }; sequencer: { project_users: { total: string; pending: string } } }>(
        await api(provider, "/internal/external-db-sync/status?scope=all", { headers: internalAdmin }),
      );
    const held = await status();
    expect(held.poller.pending).toBe("1");
    expect(Number(held.sequencer.project_users.total)).toBeGreaterThan(0);
    expect(held.sequencer.project_users.pending).toBe("0");
    await api(provider, "/internal/external-db-sync/fusebox", {
      headers: internalAdmin,
      json: { sequencer_enabled: true, poller_enabled: true },
    });
    await provider.work.runDue();
    expect((await status()).poller.pending).toBe("0");
  });
});

describe("the cron endpoints", () => {
  it("refuse callers without the bearer secret, then check maxDurationMs, and run one pass", async () => {
    provider = newProvider();
    for (const path of ["poller", "sequencer"]) {
      const url = `/internal/external-db-sync/${path}`;
      expect(await text(await api(provider, url))).toEqual({ status: 401, body: "Unauthorized" });
      expect(await text(await api(provider, url, { headers: admin() }))).toEqual({ status: 401, body: "Unauthorized" });
      expect(await text(await api(provider, `${url}?maxDurationMs=0`, { raw: { authorization: "Bearer x" } }))).toEqual(
        {
          status: 401,
          body: "Unauthorized",
        },
      );
      expect(
        await text(
          await api(provider, `${url}?maxDurationMs=abc`, { raw: { authorization: "Bearer mock_cron_secret" } }),
        ),
      ).toEqual({ status: 400, body: "maxDurationMs must be a positive integer" });
    }
    expect(
      await expectJson(await api(provider, "/internal/external-db-sync/sequencer", { headers: internalAdmin })),
    ).toEqual({ ok: true, iterations: 1 });
    expect(
      await expectJson(
        await api(provider, "/internal/external-db-sync/poller?maxDurationMs=50", {
          raw: { authorization: "Bearer mock_cron_secret" },
        }),
      ),
    ).toEqual({ ok: true, requests_processed: 0 });
  });
});

describe("the sync engine endpoint", () => {
  it("requires the queue's signature, takes the development bypass, and answers success for a tenancy that is gone", async () => {
    provider = newProvider();
    const url = "/internal/external-db-sync/sync-engine";
    await expectKnownError(await api(provider, url, { json: { tenancyId: DEV.id } }), "SCHEMA_ERROR", 400);
    expect(
      await text(await api(provider, url, { json: { tenancyId: DEV.id }, raw: { "upstash-signature": "forged" } })),
    ).toEqual({ status: 400, body: "Invalid Upstash signature" });
    const gone = "0b6c5a52-3c1d-4f8e-9a7b-2d4e6f8a0c1e";
    expect(
      await expectJson(
        await api(provider, url, { json: { tenancyId: gone }, raw: { "upstash-signature": "test-bypass" } }),
      ),
    ).toEqual({ success: true });
  });
});

describe("a database that never answers", () => {
  it("holds no request up while its sync waits on it", async () => {
    // Accepts connections and says nothing: the sync's connection waits (up to its bound) while requests go on.
    const sockets: Socket[] = [];
    let connected!: () => void;
    const reached = new Promise<void>((resolve) => (connected = resolve));
    const silent = createServer((socket) => {
      sockets.push(socket);
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      provider = newProvider();
      await configure({ main: { type: "postgres", connectionString: `postgresql://u:p@127.0.0.1:${port}/db` } });
      await reached;
      const answered = await api(provider, "/users", { headers: admin(), json: { primary_email: freshEmail("free") } });
      expect(answered.status).toBe(201);
      expect((await api(provider, "/users", { headers: admin() })).status).toBe(200);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await provider.work.idle();
    }
  });
});
