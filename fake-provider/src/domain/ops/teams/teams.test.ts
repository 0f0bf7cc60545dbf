import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  START_MILLIS,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { addMember, as, itemIds, serverCreateTeam, teamWithMember } from "../../../test-support/teams.ts";

/** Teams over HTTP: views, schemas and list envelopes (protocol.md §5.3, §6.4). The rules: teams.seam.test.ts. */

type Json = Record<string, unknown>;
const CLIENT_TEAM_KEYS = ["client_metadata", "client_read_only_metadata", "display_name", "id", "profile_image_url"];
const SERVER_TEAM_KEYS = [...CLIENT_TEAM_KEYS, "created_at_millis", "server_metadata"].sort();
const UNKNOWN_TEAM = "00000000-0000-4000-8000-000000000000";

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const me = async (token: string) =>
  expectJson<Json>(await api(provider, "/users/me", { headers: client({ accessToken: token }) }));

describe("POST /teams", () => {
  it("lets a client create a team: 201, the client view, the creator a member with the creator defaults; the selection left to the SDK", async () => {
    const user = await signUp(provider);
    const before = await me(user.access_token);
    const response = await api(provider, "/teams", {
      headers: as(user),
      json: { display_name: "Rocket", client_metadata: { plan: "free" } },
    });
    const team = await expectJson<Json>(response, 201);
    expect(Object.keys(team).sort()).toEqual(CLIENT_TEAM_KEYS);
    expect(team).toMatchObject({
      display_name: "Rocket",
      profile_image_url: null,
      client_metadata: { plan: "free" },
      client_read_only_metadata: null,
    });
    const mine = await me(user.access_token);
    expect(mine.selected_team_id).toEqual(before.selected_team_id);
    expect(
      await itemIds(
        await api(provider, `/team-permissions?team_id=${String(team.id)}&user_id=me&recursive=false`, {
          headers: as(user),
        }),
      ),
    ).toEqual(["team_admin"]);
    expect(await itemIds(await api(provider, "/teams?user_id=me", { headers: as(user) }))).toEqual([team.id]);
  });

  it("refuses server-only fields and bad values from a client with SCHEMA_ERROR", async () => {
    const user = await signUp(provider);
    const body = await expectKnownError(
      await api(provider, "/teams", { headers: as(user), json: { display_name: "T", server_metadata: {} } }),
      "SCHEMA_ERROR",
      400,
    );
    expect(body.error).toContain("body contains unknown properties: server_metadata");
    await expectKnownError(
      await api(provider, "/teams", { headers: as(user), json: { display_name: 7 } }),
      "SCHEMA_ERROR",
      400,
    );
    await expectKnownError(
      await api(provider, "/teams", { headers: as(user), json: { display_name: "T", profile_image_url: "not a url" } }),
      "SCHEMA_ERROR",
      400,
    );
    // A client sends images inline; a web URL is a plain 400, as upstream.
    const web = await api(provider, "/teams", {
      headers: as(user),
      json: { display_name: "T", profile_image_url: "https://img.example.com/t.png" },
    });
    expect([web.status, await web.text()]).toEqual([400, "Invalid profile image URL"]);
  });

  it("lets a server create a team with metadata and no creator (no members), or for a creator who must exist", async () => {
    const team = await serverCreateTeam(provider, {
      display_name: "Ops",
      server_metadata: { tier: 2 },
      client_read_only_metadata: { r: 1 },
    });
    expect(Object.keys(team).sort()).toEqual(SERVER_TEAM_KEYS);
    expect(team).toMatchObject({
      created_at_millis: START_MILLIS,
      server_metadata: { tier: 2 },
      client_read_only_metadata: { r: 1 },
    });
    expect(await expectJson(await api(provider, `/users?team_id=${team.id}`, { headers: server() }))).toMatchObject({
      items: [],
    });
    const missing = await api(provider, "/teams", {
      headers: server(),
      json: { display_name: "X", creator_user_id: UNKNOWN_TEAM },
    });
    await expectKnownError(missing, "USER_NOT_FOUND", 404);
  });
});

describe("GET /teams", () => {
  it("lists every team for a server, oldest first, filtered by user and query, paged by limit and cursor", async () => {
    const created: string[] = [];
    for (const name of ["Alpha", "Beta", "Gamma"]) {
      created.push((await serverCreateTeam(provider, { display_name: name })).id);
      provider.clock.advance(1_000);
    }
    expect(await itemIds(await api(provider, "/teams", { headers: server() }))).toEqual(created);
    expect(await itemIds(await api(provider, "/teams?desc=true", { headers: server() }))).toEqual(
      [...created].reverse(),
    );
    expect(await itemIds(await api(provider, "/teams?query=amm", { headers: server() }))).toEqual([created[2]]);
    const first = await expectJson<Json>(
      await api(provider, "/teams?limit=2&order_by=created_at", { headers: server() }),
    );
    expect(first).toMatchObject({ is_paginated: true, pagination: { next_cursor: created[2] } });
    const second = await expectJson<Json>(
      await api(provider, `/teams?limit=2&cursor=${created[2]!}`, { headers: server() }),
    );
    expect(second).toMatchObject({ items: [{ id: created[2] }], pagination: { next_cursor: null } });
    const user = await signUp(provider);
    await addMember(provider, created[1]!, user.user_id);
    expect(await itemIds(await api(provider, `/teams?user_id=${user.user_id}`, { headers: server() }))).toEqual([
      created[1],
    ]);
  });
});

describe("GET, PATCH and DELETE /teams/{id}", () => {
  it("needs $update_team for a client update (TEAM_PERMISSION_REQUIRED with details); the creator has it", async () => {
    const { owner, member, team } = await teamWithMember(provider);
    const patch = (user: { access_token: string }, json: Json) =>
      api(provider, `/teams/${team.id}`, { method: "PATCH", headers: as(user), json });
    const body = await expectKnownError(
      await patch(member, { display_name: "Hijacked" }),
      "TEAM_PERMISSION_REQUIRED",
      401,
    );
    expect(body.details).toEqual({ team_id: team.id, user_id: member.user_id, permission_id: "$update_team" });
    const image = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";
    expect(await expectJson(await patch(owner, { display_name: "Renamed", profile_image_url: image }))).toMatchObject({
      display_name: "Renamed",
      profile_image_url: expect.stringMatching(/\/__storage\/stack-storage\/team-profile-images\/[0-9a-f-]{36}\.gif$/),
    });
    expect((await patch(owner, { profile_image_url: "https://img.example.com/t.png" })).status).toBe(400);
    await expectKnownError(await patch(owner, { server_metadata: {} }), "SCHEMA_ERROR", 400);
    const serverPatch = await api(provider, `/teams/${team.id}`, {
      method: "PATCH",
      headers: server(),
      json: { server_metadata: { s: 1 } },
    });
    expect(await expectJson(serverPatch)).toMatchObject({ display_name: "Renamed", server_metadata: { s: 1 } });
  });
});
