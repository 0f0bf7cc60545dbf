import { describe, expect, it } from "vitest";
import type { ClientTeamJson } from "../contract/areas/teams.ts";
import { manualClock } from "../runtime/clock.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import { fakeFetch, json, knownError, recordingSleep, type Responder } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { claims, TEST_USER_ID, unsignedToken } from "../test-support/tokens.ts";
import { clientUserJson } from "../test-support/wire-fixtures.ts";
import { StackClientApp } from "./client-app.ts";

/** The client team, invitation and permission calls on the wire (sdk-surface.md §6, §9b, §12; protocol.md §5.3–5.5). */

const T0 = 1_750_000_000_000;
const TEAM_ID = "5a0e2a64-1111-4222-8333-944455556666";
const OTHER_ID = "7d1c2b4a-5d6e-4f70-9a9b-0c1d2e3f4a5b";
const team: ClientTeamJson = {
  id: TEAM_ID,
  display_name: "Rocket",
  profile_image_url: null,
  client_metadata: { a: 1 },
  client_read_only_metadata: null,
};

function setup(responder: Responder) {
  const ff = fakeFetch(responder);
  const store = memoryTokenStore({ accessToken: unsignedToken(claims(T0, 600_000)), refreshToken: "rt" });
  const app = new StackClientApp({
    projectId: "internal",
    baseUrl: "http://api.test",
    tokenStore: store,
    fetch: ff.fetch,
    clock: manualClock(T0),
    sleep: recordingSleep().sleep,
  });
  return { app, calls: ff.calls };
}

const me =
  (overrides = {}) =>
  () =>
    json(clientUserJson({ selected_team_id: TEAM_ID, selected_team: team, ...overrides }));
const bodyOf = (call: { body: string | undefined }): unknown => JSON.parse(call.body ?? "null");
const line = (call: { url: string; method: string }) => {
  const url = new URL(call.url);
  return `${call.method} ${url.pathname.replace("/api/v1", "")}${url.search}`;
};

describe("the current user's teams", () => {
  it("creates a team as `me`, then selects it, as the reference SDK does", async () => {
    const { app, calls } = setup(
      router({ "GET /users/me": me(), "POST /teams": () => json(team, 201), "PATCH /users/me": me() }),
    );
    const user = await app.getUser({ or: "throw" });
    const created = await user.createTeam({ displayName: "Rocket" });
    expect(calls.slice(1).map(line)).toEqual(["POST /teams", "PATCH /users/me"]);
    expect(bodyOf(calls[1]!)).toEqual({ display_name: "Rocket", creator_user_id: "me" });
    expect(bodyOf(calls[2]!)).toEqual({ selected_team_id: TEAM_ID });
    expect(calls[1]!.headers["x-stack-access-token"]).toBeDefined();
    expect(created).toMatchObject({ id: TEAM_ID, displayName: "Rocket", clientMetadata: { a: 1 } });
  });

  it("gives selectedTeam as a team object whose calls go through the user's session", async () => {
    const { app, calls } = setup(
      router({
        "GET /users/me": me(),
        [`PATCH /teams/${TEAM_ID}`]: () => json(team),
        "GET /team-member-profiles": () =>
          json({
            items: [{ team_id: TEAM_ID, user_id: OTHER_ID, display_name: "Bo", profile_image_url: null }],
            is_paginated: false,
          }),
        "POST /team-invitations/send-code": () => json({ success: true, id: OTHER_ID }),
        [`DELETE /teams/${TEAM_ID}`]: () => json({ success: true }),
      }),
    );
    const selected = (await app.getUser({ or: "throw" })).selectedTeam!;
    await selected.update({ displayName: "Renamed", profileImageUrl: null });
    expect(bodyOf(calls[1]!)).toEqual({ display_name: "Renamed", profile_image_url: null });
    expect(await selected.listUsers()).toEqual([
      { id: OTHER_ID, teamProfile: { displayName: "Bo", profileImageUrl: null } },
    ]);
    expect(line(calls[2]!)).toBe(`GET /team-member-profiles?team_id=${TEAM_ID}`);
    await expect(selected.inviteUser({ email: "x@example.com" })).rejects.toThrow(/callbackUrl/);
    await selected.inviteUser({
      email: "x@example.com",
      callbackUrl: "https://app.example.com/handler/team-invitation",
    });
    expect(bodyOf(calls.at(-1)!)).toEqual({
      email: "x@example.com",
      team_id: TEAM_ID,
      callback_url: "https://app.example.com/handler/team-invitation",
    });
    await selected.delete();
    expect(line(calls.at(-1)!)).toBe(`DELETE /teams/${TEAM_ID}`);
  });

  it("lists teams with user_id=me, finds one by id (null when absent), leaves one and unselects", async () => {
    const { app, calls } = setup(
      router({
        "GET /users/me": me(),
        "GET /teams": () => json({ items: [team], is_paginated: false }),
        [`DELETE /team-memberships/${TEAM_ID}/me`]: () => json({ success: true }),
        "PATCH /users/me": me({ selected_team_id: null, selected_team: null }),
      }),
    );
    const user = await app.getUser({ or: "throw" });
    expect((await user.listTeams()).map((t) => t.id)).toEqual([TEAM_ID]);
    expect(line(calls[1]!)).toBe("GET /teams?user_id=me");
    expect(await user.getTeam(OTHER_ID)).toBeNull();
    await user.leaveTeam({ id: TEAM_ID });
    expect(line(calls.at(-1)!)).toBe(`DELETE /team-memberships/${TEAM_ID}/me`);
    await user.setSelectedTeam(null);
    expect(bodyOf(calls.at(-1)!)).toEqual({ selected_team_id: null });
  });

  it("reads and edits its own team profile", async () => {
    const profile = { team_id: TEAM_ID, user_id: TEST_USER_ID, display_name: "Ada", profile_image_url: null };
    const path = `/team-member-profiles/${TEAM_ID}/me`;
    const { app, calls } = setup(
      router({ "GET /users/me": me(), [`GET ${path}`]: () => json(profile), [`PATCH ${path}`]: () => json(profile) }),
    );
    const editable = await (await app.getUser({ or: "throw" })).getTeamProfile({ id: TEAM_ID });
    expect(editable).toMatchObject({ displayName: "Ada", profileImageUrl: null });
    await editable.update({ displayName: "Ada L." });
    expect(bodyOf(calls.at(-1)!)).toEqual({ display_name: "Ada L." });
  });

  it("lists received invitations and accepts one by id for `me`", async () => {
    const invitation = {
      id: OTHER_ID,
      team_id: TEAM_ID,
      team_display_name: "Rocket",
      expires_at_millis: T0 + 1000,
      recipient_email: "ada@example.com",
    };
    const { app, calls } = setup(
      router({
        "GET /users/me": me(),
        "GET /team-invitations": () => json({ items: [invitation], is_paginated: false }),
        [`POST /team-invitations/${OTHER_ID}/accept`]: () => json({}),
      }),
    );
    const [received] = await (await app.getUser({ or: "throw" })).listTeamInvitations();
    expect(received).toMatchObject({
      id: OTHER_ID,
      teamId: TEAM_ID,
      teamDisplayName: "Rocket",
      expiresAt: new Date(T0 + 1000),
    });
    expect(line(calls[1]!)).toBe("GET /team-invitations?user_id=me");
    await received!.accept();
    expect(line(calls.at(-1)!)).toBe(`POST /team-invitations/${OTHER_ID}/accept?user_id=me`);
  });
});

describe("the current user's permissions", () => {
  it("lists a team's recursively by default; has/get look the id up; the project's use /project-permissions", async () => {
    const { app, calls } = setup(
      router({
        "GET /users/me": me(),
        "GET /team-permissions": () =>
          json({ items: [{ id: "$read_members", user_id: TEST_USER_ID, team_id: TEAM_ID }], is_paginated: false }),
        "GET /project-permissions": () =>
          json({ items: [{ id: "read_docs", user_id: TEST_USER_ID }], is_paginated: false }),
      }),
    );
    const user = await app.getUser({ or: "throw" });
    expect(await user.listPermissions({ id: TEAM_ID })).toEqual([{ id: "$read_members" }]);
    expect(line(calls[1]!)).toBe(`GET /team-permissions?team_id=${TEAM_ID}&user_id=me&recursive=true`);
    expect(await user.hasPermission({ id: TEAM_ID }, "$read_members")).toBe(true);
    expect(await user.hasPermission({ id: TEAM_ID }, "$update_team")).toBe(false);
    expect(await user.getPermission({ id: TEAM_ID }, "$read_members", { recursive: false })).toEqual({
      id: "$read_members",
    });
    expect(line(calls.at(-1)!)).toContain("recursive=false");
    expect(await user.listPermissions({ recursive: false })).toEqual([{ id: "read_docs" }]);
    expect(line(calls.at(-1)!)).toBe("GET /project-permissions?user_id=me&recursive=false");
    expect(await user.hasPermission("read_docs")).toBe(true);
    expect(await user.getPermission("write_docs")).toBeNull();
  });
});

describe("team invitation codes on the app", () => {
  it("returns verification errors and email mismatches as error results, details as teamDisplayName", async () => {
    const answers: Record<string, () => Response> = {
      "/team-invitations/accept/check-code": () => knownError("VERIFICATION_CODE_EXPIRED", 400),
      "/team-invitations/accept": () => knownError("TEAM_INVITATION_EMAIL_MISMATCH", 403),
      "/team-invitations/accept/details": () => json({ team_id: TEAM_ID, team_display_name: "Rocket" }),
    };
    const { app, calls } = setup((call) => answers[new URL(call.url).pathname.replace("/api/v1", "")]!());
    const checked = await app.verifyTeamInvitationCode("c0de");
    expect(checked.status === "error" && checked.error.code).toBe("VERIFICATION_CODE_EXPIRED");
    const accepted = await app.acceptTeamInvitation("c0de");
    expect(accepted.status === "error" && accepted.error.code).toBe("TEAM_INVITATION_EMAIL_MISMATCH");
    expect(await app.getTeamInvitationDetails("c0de")).toEqual({ status: "ok", data: { teamDisplayName: "Rocket" } });
    expect(calls.map((c) => bodyOf(c))).toEqual([{ code: "c0de" }, { code: "c0de" }, { code: "c0de" }]);
    expect(calls.every((c) => c.headers["x-stack-access-token"] !== undefined)).toBe(true);
  });

  it("throws errors that are not the code's own", async () => {
    const { app } = setup(() => knownError("USER_AUTHENTICATION_REQUIRED", 401));
    await expect(app.acceptTeamInvitation("c0de")).rejects.toMatchObject({ code: "USER_AUTHENTICATION_REQUIRED" });
  });
});
