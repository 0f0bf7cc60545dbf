import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { paginatedEnvelope, serverUser } from "@authsim/sdk/contract";
import {
  DEV,
  INTERNAL,
  START_MILLIS,
  anonymousSignUp,
  api,
  client,
  expectJson,
  expectKnownError,
  freshEmail,
  newProvider,
  refreshGrant,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";

/** Users over HTTP: /users/me for every access type, the server CRUD, listing and deletion (protocol.md §5.2, §6.3). The ops' rules are in users.seam.test.ts. */

/** The client "me" view's exact key set (protocol.md §5.2, A26 e2e snapshot). */
const CLIENT_KEYS = [
  "id",
  "primary_email",
  "primary_email_verified",
  "display_name",
  "client_metadata",
  "client_read_only_metadata",
  "profile_image_url",
  "signed_up_at_millis",
  "has_password",
  "auth_with_email",
  "oauth_providers",
  "selected_team_id",
  "selected_team",
  "requires_totp_mfa",
  "otp_auth_enabled",
  "passkey_auth_enabled",
  "is_anonymous",
  "is_restricted",
  "restricted_reason",
  "restricted_by_admin",
  "restricted_by_admin_reason",
];
const SERVER_KEYS = [
  ...CLIENT_KEYS,
  "primary_email_auth_enabled",
  "server_metadata",
  "last_active_at_millis",
  "restricted_by_admin_private_details",
  "country_code",
  "risk_scores",
];
const page = paginatedEnvelope(serverUser);
type Json = Record<string, unknown>;

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const createUser = async (body: Json) =>
  expectJson<Json>(await api(provider, "/users", { headers: server(), json: body }), 201);
const listUsers = async (query: string) =>
  page.parse(await expectJson(await api(provider, `/users${query}`, { headers: server() })));

describe("/users/me", () => {
  it("shows a client exactly the client view's keys", async () => {
    const user = await signUp(provider, { email: "ada@example.com" });
    const me = await expectJson<Json>(
      await api(provider, "/users/me", { headers: client({ accessToken: user.access_token }) }),
    );
    expect(Object.keys(me).sort()).toEqual([...CLIENT_KEYS].sort());
    expect(me).toMatchObject({
      id: user.user_id,
      primary_email: "ada@example.com",
      primary_email_verified: false,
      display_name: null,
      signed_up_at_millis: START_MILLIS,
      has_password: true,
      auth_with_email: true,
      oauth_providers: [],
      selected_team: null,
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
      restricted_by_admin: false,
    });
  });

  it("shows server access the server view: the client keys plus the server keys", async () => {
    const user = await signUp(provider);
    const me = await expectJson<Json>(
      await api(provider, "/users/me", { headers: server({ accessToken: user.access_token }) }),
    );
    expect(Object.keys(me).sort()).toEqual([...SERVER_KEYS].sort());
    expect(serverUser.parse(me)).toMatchObject({
      primary_email_auth_enabled: true,
      last_active_at_millis: START_MILLIS,
      server_metadata: null,
    });
  });

  it("rejects /users/me without a user with CANNOT_GET_OWN_USER_WITHOUT_USER", async () => {
    await expectKnownError(
      await api(provider, "/users/me", { headers: client() }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      400,
    );
    await expectKnownError(
      await api(provider, "/users/me", { headers: server() }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      400,
    );
  });

  it("lets a client update its client fields", async () => {
    const user = await signUp(provider);
    const response = await api(provider, "/users/me", {
      method: "PATCH",
      headers: client({ accessToken: user.access_token }),
      json: { display_name: "Ada", client_metadata: { theme: "dark" } },
    });
    expect(await expectJson(response)).toMatchObject({ display_name: "Ada", client_metadata: { theme: "dark" } });
  });

  it("refuses server-only fields from a client with SCHEMA_ERROR, but takes them from a server", async () => {
    const user = await signUp(provider);
    const patch = (headers: typeof client) =>
      api(provider, "/users/me", {
        method: "PATCH",
        headers: headers({ accessToken: user.access_token }),
        json: { server_metadata: { plan: "pro" } },
      });
    const body = await expectKnownError(await patch(client), "SCHEMA_ERROR", 400);
    expect(body.error).toContain("body contains unknown properties: server_metadata");
    expect(await expectJson(await patch(server))).toMatchObject({ server_metadata: { plan: "pro" } });
  });

  it("deletes the signed-in user, after which the token names no user and the session is gone", async () => {
    const user = await signUp(provider);
    const headers = client({ accessToken: user.access_token });
    expect(await expectJson(await api(provider, "/users/me", { method: "DELETE", headers }))).toEqual({
      success: true,
    });
    await expectKnownError(await api(provider, "/users/me", { headers }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    await expectKnownError(await refreshGrant(provider, user.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });
});

describe("server user CRUD", () => {
  it("creates a user with 201 and the server view, whose password then signs in", async () => {
    const email = freshEmail();
    const created = await createUser({
      primary_email: email,
      password: "long enough",
      display_name: "Grace",
      server_metadata: { a: 1 },
    });
    expect(Object.keys(created).sort()).toEqual([...SERVER_KEYS].sort());
    expect(created).toMatchObject({
      primary_email: email,
      display_name: "Grace",
      has_password: true,
      primary_email_auth_enabled: true,
      server_metadata: { a: 1 },
    });
    const signIn = await api(provider, "/auth/password/sign-in", {
      headers: client(),
      json: { email, password: "long enough" },
    });
    expect(await expectJson(signIn)).toMatchObject({ user_id: created.id });
  });

  it("reads, updates and deletes a user by id", async () => {
    const user = await signUp(provider);
    const path = `/users/${user.user_id}`;
    expect(await expectJson(await api(provider, path, { headers: server() }))).toMatchObject({
      id: user.user_id,
      primary_email: user.email,
    });
    const patched = await api(provider, path, {
      method: "PATCH",
      headers: server(),
      json: { display_name: "Renamed", password: "a new password" },
    });
    expect(await expectJson(patched)).toMatchObject({ display_name: "Renamed" });
    const signIn = await api(provider, "/auth/password/sign-in", {
      headers: client(),
      json: { email: user.email, password: "a new password" },
    });
    await expectJson(signIn);
    expect(await expectJson(await api(provider, path, { method: "DELETE", headers: server() }))).toEqual({
      success: true,
    });
    await expectKnownError(await api(provider, path, { headers: server() }), "USER_NOT_FOUND", 404);
  });

  it("answers USER_NOT_FOUND for an unknown id and for another project's user", async () => {
    await expectKnownError(
      await api(provider, "/users/0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3", { headers: server() }),
      "USER_NOT_FOUND",
      404,
    );
    const internalUser = await signUp(provider, { project: INTERNAL });
    await expectKnownError(
      await api(provider, `/users/${internalUser.user_id}`, { headers: server() }),
      "USER_NOT_FOUND",
      404,
    );
    const update = await api(provider, `/users/${internalUser.user_id}`, {
      method: "PATCH",
      headers: server(),
      json: { display_name: "x" },
    });
    await expectKnownError(update, "USER_NOT_FOUND", 404);
    await expectKnownError(
      await api(provider, `/users/${internalUser.user_id}`, { method: "DELETE", headers: server() }),
      "USER_NOT_FOUND",
      404,
    );
  });

  it("stores an empty display name as null, and takes any address of the HTML email form", async () => {
    const created = await api(provider, "/users", {
      method: "POST",
      headers: server(),
      json: { display_name: "", primary_email: "ada@localhost" },
    });
    expect(await expectJson(created, 201)).toMatchObject({ display_name: null, primary_email: "ada@localhost" });
    const user = await signUp(provider);
    const patched = await api(provider, "/users/me", {
      method: "PATCH",
      headers: client({ accessToken: user.access_token }),
      json: { display_name: "" },
    });
    expect(await expectJson(patched)).toMatchObject({ display_name: null });
  });

  it("takes only inline images from a client (a web URL is upstream's plain 400), any URL from a server", async () => {
    const user = await signUp(provider);
    const patch = (headers: Record<string, string>, url: string) =>
      api(provider, "/users/me", { method: "PATCH", headers, json: { profile_image_url: url } });
    const web = await patch(client({ accessToken: user.access_token }), "https://img.example.com/a.png");
    expect([web.status, await web.text()]).toEqual([400, "Invalid profile image URL"]);
    expect(
      (await patch(client({ accessToken: user.access_token }), "data:image/not-an-image;base64,AAAA")).status,
    ).toBe(400);
    const inline = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";
    // Stored, and answered as its URL on the storage endpoint (domain/ops/storage/uploaded-images.ts).
    expect(await expectJson(await patch(client({ accessToken: user.access_token }), inline))).toMatchObject({
      profile_image_url: expect.stringMatching(/\/__storage\/stack-storage\/user-profile-images\/[0-9a-f-]{36}\.gif$/),
    });
    const asServer = await api(provider, `/users/${user.user_id}`, {
      method: "PATCH",
      headers: server(),
      json: { profile_image_url: "https://img.example.com/a.png" },
    });
    expect(await expectJson(asServer)).toMatchObject({ profile_image_url: "https://img.example.com/a.png" });
  });

  it("takes the list's query keys on the single-user verbs, as upstream's one CRUD query schema does", async () => {
    const anon = await anonymousSignUp(provider);
    expect(
      await expectJson(await api(provider, `/users/${anon.user_id}?include_anonymous=true`, { headers: server() })),
    ).toMatchObject({ id: anon.user_id, is_anonymous: true });
  });

  it("upgrades an anonymous user with is_anonymous: false", async () => {
    const anon = await anonymousSignUp(provider);
    const response = await api(provider, `/users/${anon.user_id}`, {
      method: "PATCH",
      headers: server(),
      json: { is_anonymous: false },
    });
    expect(await expectJson(response)).toMatchObject({
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
    });
  });
});

describe("GET /users", () => {
  /** Five users signed up one second apart, so signed_up_at orders them. */
  async function fiveUsers(): Promise<string[]> {
    const ids: string[] = [];
    for (const name of ["alpha", "bravo", "charlie", "delta", "echo"]) {
      ids.push((await createUser({ primary_email: `${name}@example.com`, display_name: name })).id as string);
      provider.clock.advance(1_000);
    }
    return ids;
  }

  it("lists every user in one unpaginated page by default, oldest first", async () => {
    const ids = await fiveUsers();
    const all = await listUsers("");
    expect(all.items.map((u) => u.id)).toEqual(ids);
    expect(all.is_paginated).toBe(true);
    expect(all.pagination.next_cursor).toBeNull();
  });

  it("pages with limit and next_cursor until the cursor is null", async () => {
    const ids = await fiveUsers();
    const first = await listUsers("?limit=2");
    expect(first.items.map((u) => u.id)).toEqual(ids.slice(0, 2));
    expect(first.pagination.next_cursor).toBe(ids[2]);
    const second = await listUsers(`?limit=2&cursor=${ids[2]}`);
    expect(second.items.map((u) => u.id)).toEqual(ids.slice(2, 4));
    const last = await listUsers(`?limit=2&cursor=${second.pagination.next_cursor}`);
    expect(last.items.map((u) => u.id)).toEqual([ids[4]]);
    expect(last.pagination.next_cursor).toBeNull();
  });

  it("rejects a malformed limit or cursor with SCHEMA_ERROR", async () => {
    await expectKnownError(await api(provider, "/users?limit=0", { headers: server() }), "SCHEMA_ERROR", 400);
    await expectKnownError(await api(provider, "/users?cursor=nope", { headers: server() }), "SCHEMA_ERROR", 400);
  });

  it("is a server operation: the dev project's admin key lists too", async () => {
    await fiveUsers();
    const response = await api(provider, "/users", {
      headers: { accessType: "admin", projectId: DEV.id, superSecretAdminKey: DEV.keys.super_secret_admin_key },
    });
    expect(page.parse(await expectJson(response)).items).toHaveLength(5);
  });
});
