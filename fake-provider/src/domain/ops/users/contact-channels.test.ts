import { describe, expect, it } from "vitest";
import {
  api,
  client,
  eachTestSignedUp,
  expectJson,
  expectKnownError,
  freshEmail,
  INTERNAL,
  server,
  signUp,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { addChannel, as, CALLBACK, latestCode, listChannels, serverUser } from "../../../test-support/account.ts";

/** Contact channels and email verification over HTTP (protocol.md §5.6, §6.3, §7.3): views, access, answers. The rules: contact-channels.seam.test.ts. */

let provider: TestProvider;
let user: SignedUp;
eachTestSignedUp((p, u) => ((provider = p), (user = u)));

const channelPath = (id: string, userId = "me") => `/contact-channels/${userId}/${id}`;

describe("the primary email is a primary contact channel", () => {
  it("is created by sign-up, used for auth and unverified", async () => {
    const [channel, ...rest] = await listChannels(provider, user);
    expect(rest).toEqual([]);
    expect(channel).toEqual({
      user_id: user.user_id,
      id: channel!.id,
      value: user.email,
      type: "email",
      used_for_auth: true,
      is_verified: false,
      is_primary: true,
    });
  });

  it("is created by a server-made user with an email, and follows PATCH /users/{id}", async () => {
    const email = freshEmail();
    const created = await expectJson<{ id: string }>(
      await api(provider, "/users", {
        headers: server(),
        json: { primary_email: email, primary_email_verified: true },
      }),
      201,
    );
    const list = async () =>
      expectJson<{ items: unknown[] }>(
        await api(provider, `/contact-channels?user_id=${created.id}`, { headers: server() }),
      );
    expect((await list()).items).toEqual([
      expect.objectContaining({ value: email, is_primary: true, is_verified: true, used_for_auth: false }),
    ]);
    const renamed = freshEmail();
    await expectJson(
      await api(provider, `/users/${created.id}`, {
        method: "PATCH",
        headers: server(),
        json: { primary_email: renamed, primary_email_auth_enabled: true },
      }),
    );
    // The old address stays, no longer primary (as the real service demotes it).
    expect((await list()).items).toEqual([
      expect.objectContaining({ value: email, is_primary: false, is_verified: true, used_for_auth: false }),
      expect.objectContaining({ value: renamed, is_primary: true, is_verified: false, used_for_auth: true }),
    ]);
    const removed = await expectJson<Record<string, unknown>>(
      await api(provider, `/users/${created.id}`, {
        method: "PATCH",
        headers: server(),
        json: { primary_email: null },
      }),
    );
    expect(removed).toMatchObject({
      primary_email: null,
      primary_email_verified: false,
      primary_email_auth_enabled: false,
    });
    expect((await list()).items).toEqual([
      expect.objectContaining({ value: email, is_primary: false }),
      expect.objectContaining({ value: renamed, is_primary: false, used_for_auth: true }),
    ]);
    // Back to an address the user has: its verification comes with it.
    expect(
      await expectJson(
        await api(provider, `/users/${created.id}`, {
          method: "PATCH",
          headers: server(),
          json: { primary_email: email },
        }),
      ),
    ).toMatchObject({ primary_email: email, primary_email_verified: true });
    // Removing the address turns its sign-in off, whatever the body says.
    const removing = await api(provider, `/users/${created.id}`, {
      method: "PATCH",
      headers: server(),
      json: { primary_email: null, primary_email_auth_enabled: true },
    });
    expect(removing.status).toBe(200);
    const noEmail = await expectJson<{ id: string }>(
      await api(provider, "/users", { headers: server(), json: { display_name: "No email" } }),
      201,
    );
    for (const field of ["primary_email_verified", "primary_email_auth_enabled"]) {
      const response = await api(provider, `/users/${noEmail.id}`, {
        method: "PATCH",
        headers: server(),
        json: { [field]: true },
      });
      expect([response.status, await response.text()]).toEqual([400, `${field} cannot be true without primary_email`]);
    }
  });
});

describe("contact channel CRUD", () => {
  it("creates (201), reads, updates and deletes a channel of the signed-in user", async () => {
    const value = freshEmail();
    const created = await addChannel(provider, user, { value });
    expect(created).toMatchObject({
      user_id: user.user_id,
      value,
      type: "email",
      used_for_auth: false,
      is_verified: false,
      is_primary: false,
    });
    expect(await expectJson(await api(provider, channelPath(created.id), { headers: as(user) }))).toEqual(created);
    const patched = await expectJson(
      await api(provider, channelPath(created.id, user.user_id), {
        method: "PATCH",
        headers: as(user),
        json: { used_for_auth: true },
      }),
    );
    expect(patched).toMatchObject({ id: created.id, used_for_auth: true });
    expect(
      await expectJson(await api(provider, channelPath(created.id), { method: "DELETE", headers: as(user) })),
    ).toEqual({ success: true });
    expect((await api(provider, channelPath(created.id), { headers: as(user) })).status).toBe(404);
  });

  it("lets a server set is_verified, which a client may not send (SCHEMA_ERROR)", async () => {
    const body = { user_id: user.user_id, value: freshEmail(), type: "email", used_for_auth: false, is_verified: true };
    await expectKnownError(
      await api(provider, "/contact-channels", { headers: as(user), json: body }),
      "SCHEMA_ERROR",
      400,
    );
    expect(
      await expectJson(await api(provider, "/contact-channels", { headers: server(), json: body }), 201),
    ).toMatchObject({ is_verified: true });
  });

  it("keeps clients to their own channels and answers 404 for another user's channel", async () => {
    const other = await signUp(provider);
    const [otherChannel] = await listChannels(provider, other);
    expect((await api(provider, `/contact-channels?user_id=${other.user_id}`, { headers: as(user) })).status).toBe(403);
    expect((await api(provider, channelPath(otherChannel!.id), { headers: as(user) })).status).toBe(404);
    await expectKnownError(
      await api(provider, "/contact-channels?user_id=me", { headers: client() }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      400,
    );
    // Another project's user has no channels here (the real listing reads by project and user id).
    const internal = await signUp(provider, { project: INTERNAL });
    expect(
      await expectJson(await api(provider, `/contact-channels?user_id=${internal.user_id}`, { headers: server() })),
    ).toEqual({ items: [], is_paginated: false });
  });
});

describe("a server naming a user id nobody has", () => {
  it("lists no channels and finds none, as the real handlers look channels up by user id alone", async () => {
    const unknown = "6f1b3c1e-2a4d-4e5f-8a9b-0c1d2e3f4a5b";
    const channel = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    const listed = await api(provider, `/contact-channels?user_id=${unknown}`, { headers: server() });
    expect(await expectJson(listed)).toEqual({ items: [], is_paginated: false });
    const read = await api(provider, channelPath(channel, unknown), { headers: server() });
    expect([read.status, await read.text()]).toEqual([404, "Contact channel not found."]);
    const removed = await api(provider, channelPath(channel, unknown), { method: "DELETE", headers: server() });
    expect([removed.status, await removed.text()]).toEqual([400, "Contact channel not found"]);
  });
});

describe("email verification", () => {
  it("answers as the real handler for another user (a client's plain 400) and an unknown user id (USER_ID_DOES_NOT_EXIST)", async () => {
    const [primary] = await listChannels(provider, user);
    const other = await signUp(provider);
    const asked = await api(provider, `${channelPath(primary!.id, other.user_id)}/send-verification-code`, {
      headers: as(user),
      json: { callback_url: CALLBACK },
    });
    expect([asked.status, await asked.text()]).toEqual([400, "Can only send verification code for your own user"]);
    const unknown = "6f1b3c1e-2a4d-4e5f-8a9b-0c1d2e3f4a5b";
    await expectKnownError(
      await api(provider, `${channelPath(primary!.id, unknown)}/send-verification-code`, {
        headers: server(),
        json: { callback_url: CALLBACK },
      }),
      "USER_ID_DOES_NOT_EXIST",
      400,
    );
  });

  it("sends a link with a code, which verifies the channel and the user's primary email once", async () => {
    const [primary] = await listChannels(provider, user);
    const sent = await api(provider, `${channelPath(primary!.id)}/send-verification-code`, {
      headers: as(user),
      json: { callback_url: CALLBACK },
    });
    expect(await expectJson(sent)).toEqual({ success: true });
    const email = provider.outbox.latest({ to: user.email, kind: "email_verification" })!;
    expect(email.link).toBe(`${CALLBACK}?code=${email.code}`);
    expect(email.code).toMatch(/^[0-9a-z]{45}$/);

    expect(
      await expectJson(
        await api(provider, "/contact-channels/verify/check-code", { headers: client(), json: { code: email.code } }),
      ),
    ).toEqual({ is_code_valid: true });
    expect(
      await expectJson(
        await api(provider, "/contact-channels/verify", { headers: client(), json: { code: email.code } }),
      ),
    ).toEqual({ success: true });
    expect((await listChannels(provider, user))[0]).toMatchObject({ is_verified: true });
    expect(await serverUser(provider, user.user_id)).toMatchObject({ primary_email_verified: true });
    await expectKnownError(
      await api(provider, "/contact-channels/verify", { headers: client(), json: { code: email.code } }),
      "VERIFICATION_CODE_ALREADY_USED",
      409,
    );
  });

  it("sends on sign-up when a verification_callback_url is given", async () => {
    const email = freshEmail();
    await expectJson(
      await api(provider, "/auth/password/sign-up", {
        headers: client(),
        json: { email, password: "long enough", verification_callback_url: CALLBACK },
      }),
    );
    const code = latestCode(provider, email, "email_verification");
    await expectJson(await api(provider, "/contact-channels/verify", { headers: client(), json: { code } }));
    const signIn = await expectJson<{ user_id: string }>(
      await api(provider, "/auth/password/sign-in", { headers: client(), json: { email, password: "long enough" } }),
    );
    expect(await serverUser(provider, signIn.user_id)).toMatchObject({ primary_email_verified: true });
  });
});
