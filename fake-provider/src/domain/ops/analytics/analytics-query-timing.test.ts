import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  admin,
  api,
  client,
  DEV,
  expectJson,
  expectKnownError,
  INTERNAL,
  newProvider,
  server,
  type TestProvider,
} from "../../../test-support/api.ts";

/** POST /internal/analytics/query/timing: the timing of a finished analytics query, from the query log. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const runQuery = async (headers = admin()) =>
  (
    await expectJson<{ query_id: string }>(
      await api(provider, "/internal/analytics/query", { headers, json: { query: "SELECT 1 AS one" } }),
    )
  ).query_id;
const timing = (query_id: unknown, headers = server()) =>
  api(provider, "/internal/analytics/query/timing", { headers, json: { query_id } });

describe("analytics query timing", () => {
  it("answers the stats of a finished query to a server or an admin of its project", async () => {
    const queryId = await runQuery();
    for (const headers of [server(), admin()]) {
      const { stats } = await expectJson<{ stats: { cpu_time: number; wall_clock_time: number } }>(
        await timing(queryId, headers),
      );
      expect(stats.cpu_time).toBeGreaterThanOrEqual(0);
      expect(stats.wall_clock_time).toBeGreaterThanOrEqual(stats.cpu_time);
    }
  });

  it("is ITEM_NOT_FOUND for an id of another project, a malformed id, or a query that never finished", async () => {
    const queryId = await runQuery();
    await expectKnownError(await timing(queryId, server({}, INTERNAL)), "ITEM_NOT_FOUND", 404);
    await expectKnownError(await timing("not-a-query"), "ITEM_NOT_FOUND", 404);
    await expectKnownError(await timing(`${DEV.id}:main:00000000-0000-4000-8000-000000000000`), "ITEM_NOT_FOUND", 404);
    await expectKnownError(
      await api(provider, "/internal/analytics/query", { headers: admin(), json: { query: "SELEC nonsense" } }),
      "ANALYTICS_QUERY_ERROR",
      400,
    );
    expect(provider.store.read.analyticsQueryLog.size).toBe(1);
  });

  it("refuses a client, and an empty or missing query id, before looking", async () => {
    await expectKnownError(await timing("x", client()), "INSUFFICIENT_ACCESS_TYPE", 401);
    const empty = await expectKnownError(await timing(""), "SCHEMA_ERROR", 400);
    expect(empty.error).toContain("body.query_id must not be empty");
    await expectKnownError(
      await api(provider, "/internal/analytics/query/timing", { headers: server(), json: {} }),
      "SCHEMA_ERROR",
      400,
    );
  });
});
