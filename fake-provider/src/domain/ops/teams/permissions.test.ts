import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { systemPermissionIds } from "@authsim/sdk/contract";
import {
  admin,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  type TestProvider,
} from "../../../test-support/api.ts";

/** Permission definitions over HTTP: views, schemas, access, paging (protocol.md §5.4). The rules: permissions.seam.test.ts. */

type Json = Record<string, unknown>;

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const defs = (scope: "team" | "project") => `/${scope}-permission-definitions`;
const create = (scope: "team" | "project", json: Json) => api(provider, defs(scope), { headers: admin(), json });
const patch = (scope: "team" | "project", id: string, json: Json) =>
  api(provider, `${defs(scope)}/${id}`, { method: "PATCH", headers: admin(), json });
const remove = (scope: "team" | "project", id: string) =>
  api(provider, `${defs(scope)}/${id}`, { method: "DELETE", headers: admin() });
const list = async (scope: "team" | "project") =>
  (await expectJson<{ items: Json[] }>(await api(provider, defs(scope), { headers: admin() }))).items;

describe("permission definitions", () => {
  it("lists the system permissions and the seeded team_admin / team_member in team scope, nothing in project scope", async () => {
    const team = await list("team");
    expect(team.map((d) => d.id)).toEqual([...[...systemPermissionIds].sort(), "team_admin", "team_member"]);
    expect(team.find((d) => d.id === "team_admin")).toMatchObject({
      contained_permission_ids: [...systemPermissionIds].sort(),
    });
    expect(team.find((d) => d.id === "team_member")).toMatchObject({
      contained_permission_ids: ["$invite_members", "$read_members"],
    });
    expect(await list("project")).toEqual([]);
  });

  it("creates with 201 from just an id and a description (as the published SDK sends), and with contained ids", async () => {
    expect(await expectJson(await create("team", { id: "trace_perm", description: "traced" }), 201)).toEqual({
      id: "trace_perm",
      description: "traced",
      contained_permission_ids: [],
    });
    const parent = await expectJson(
      await create("team", { id: "billing:admin", contained_permission_ids: ["trace_perm", "$update_team"] }),
      201,
    );
    expect(parent).toEqual({ id: "billing:admin", contained_permission_ids: ["$update_team", "trace_perm"] });
    expect(await expectJson(await create("project", { id: "read_docs" }), 201)).toEqual({
      id: "read_docs",
      contained_permission_ids: [],
    });
  });

  it("refuses an id taken in either scope with PERMISSION_ID_ALREADY_EXISTS, and ids off the pattern with SCHEMA_ERROR", async () => {
    await expectJson(await create("team", { id: "editor" }), 201);
    const again = await expectKnownError(await create("team", { id: "editor" }), "PERMISSION_ID_ALREADY_EXISTS", 400);
    expect(again.details).toEqual({ permission_id: "editor" });
    await expectKnownError(await create("project", { id: "editor" }), "PERMISSION_ID_ALREADY_EXISTS", 400);
    for (const id of ["Editor", "has space", "$update_team", ""])
      await expectKnownError(await create("team", { id }), "SCHEMA_ERROR", 400);
  });

  it("updates contained ids and description, allowing cycles", async () => {
    await expectJson(await create("team", { id: "a" }), 201);
    await expectJson(await create("team", { id: "b", contained_permission_ids: ["a"] }), 201);
    expect(
      await expectJson(await patch("team", "a", { contained_permission_ids: ["b", "a"], description: "loop" })),
    ).toEqual({
      id: "a",
      description: "loop",
      contained_permission_ids: ["a", "b"],
    });
  });

  it("answers an unknown id with PERMISSION_NOT_FOUND and the other scope's id with WRONG_PERMISSION_SCOPE", async () => {
    await expectJson(await create("project", { id: "proj" }), 201);
    expect((await expectKnownError(await patch("team", "ghost", {}), "PERMISSION_NOT_FOUND", 404)).details).toEqual({
      permission_id: "ghost",
    });
    const wrong = await expectKnownError(
      await patch("team", "proj", { description: "x" }),
      "WRONG_PERMISSION_SCOPE",
      404,
    );
    expect(wrong.details).toEqual({ permission_id: "proj", expected_scope: "team", actual_scope: "project" });
    await expectKnownError(await remove("team", "proj"), "WRONG_PERMISSION_SCOPE", 404);
    await expectKnownError(await remove("project", "ghost"), "PERMISSION_NOT_FOUND", 404);
    // System permissions cannot be edited: their `$` fails the path's schema.
    await expectKnownError(await remove("team", "$update_team"), "SCHEMA_ERROR", 400);
  });

  it("is admin-only: server access gets INSUFFICIENT_ACCESS_TYPE", async () => {
    const body = await expectKnownError(
      await api(provider, defs("team"), { headers: server() }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
    expect(body.details).toEqual({ actual_access_type: "server", allowed_access_types: ["admin"] });
  });

  it("pages with limit and cursor, and filters with query, as the published admin SDK asks", async () => {
    const first = await expectJson<Json>(await api(provider, `${defs("team")}?limit=3`, { headers: admin() }));
    expect(first).toMatchObject({
      is_paginated: true,
      items: [{ id: "$delete_team" }, { id: "$invite_members" }, { id: "$manage_api_keys" }],
    });
    const cursor = (first.pagination as { next_cursor: string }).next_cursor;
    expect(cursor).toBe("$read_members");
    const second = await expectJson<{ items: Json[] }>(
      await api(provider, `${defs("team")}?limit=3&cursor=${encodeURIComponent(cursor)}`, { headers: admin() }),
    );
    expect(second.items.map((d) => d.id)).toEqual(["$read_members", "$remove_members", "$update_team"]);
    const queried = await expectJson<{ items: Json[] }>(
      await api(provider, `${defs("team")}?query=team_`, { headers: admin() }),
    );
    expect(queried.items.map((d) => d.id)).toEqual(["team_admin", "team_member"]);
  });
});
