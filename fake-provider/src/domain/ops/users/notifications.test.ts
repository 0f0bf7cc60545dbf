import { describe, expect, it } from "vitest";
import type { NotificationPreferenceJson } from "@authsim/sdk/contract";
import {
  api,
  client,
  eachTestSignedUp,
  expectJson,
  expectKnownError,
  server,
  signUp,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { as } from "../../../test-support/account.ts";
import { notificationCategories } from "./notifications.ts";

/** Notification categories and preferences (spec §3; protocol.md §5.11). */

let provider: TestProvider;
let user: SignedUp;
eachTestSignedUp((p, u) => ((provider = p), (user = u)));

const [transactional, marketing] = notificationCategories;
const list = async (headers = as(user), userId = "me") =>
  (
    await expectJson<{ items: NotificationPreferenceJson[] }>(
      await api(provider, `/emails/notification-preference/${userId}`, { headers }),
    )
  ).items;
const patch = (categoryId: string, enabled: boolean, headers = as(user), userId = "me") =>
  api(provider, `/emails/notification-preference/${userId}/${categoryId}`, {
    method: "PATCH",
    headers,
    json: { enabled },
  });

describe("notification preferences", () => {
  it("lists the fixed categories, enabled by default, with can_disable", async () => {
    expect(await list()).toEqual([
      {
        notification_category_id: transactional!.id,
        notification_category_name: "Transactional",
        enabled: true,
        can_disable: false,
      },
      {
        notification_category_id: marketing!.id,
        notification_category_name: "Marketing",
        enabled: true,
        can_disable: true,
      },
    ]);
  });

  it("disables and re-enables a category that can be disabled, per user", async () => {
    expect(await expectJson(await patch(marketing!.id, false))).toMatchObject({
      notification_category_id: marketing!.id,
      enabled: false,
    });
    expect((await list()).map((p) => p.enabled)).toEqual([true, false]);
    const other = await signUp(provider);
    expect((await list(as(other))).map((p) => p.enabled)).toEqual([true, true]);
    await expectJson(await patch(marketing!.id, true));
    expect((await list()).map((p) => p.enabled)).toEqual([true, true]);
  });

  it("refuses to disable a category whose can_disable is false with a SCHEMA_ERROR naming it", async () => {
    const body = await expectKnownError(await patch(transactional!.id, false), "SCHEMA_ERROR", 400);
    expect(body.error).toContain('"Transactional"');
    expect(body.error).toContain("cannot be disabled");
    expect((await list())[0]!.enabled).toBe(true);
    // Enabling it (a no-op) is fine.
    await expectJson(await patch(transactional!.id, true));
  });

  it("answers a plain 404 for an unknown category", async () => {
    const response = await patch("0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3", false);
    expect(response.status).toBe(404);
    expect(response.headers.get("x-stack-known-error")).toBeNull();
  });

  it("lets a server read and write any user's preferences, and keeps clients to their own (403)", async () => {
    await expectJson(await patch(marketing!.id, false, server(), user.user_id));
    expect((await list(server(), user.user_id)).map((p) => p.enabled)).toEqual([true, false]);
    const other = await signUp(provider);
    const viewed = await api(provider, `/emails/notification-preference/${other.user_id}`, { headers: as(user) });
    expect([viewed.status, await viewed.text()]).toEqual([403, "You can only view your own notification preferences"]);
    const managed = await patch(marketing!.id, false, as(user), other.user_id);
    expect([managed.status, await managed.text()]).toEqual([
      403,
      "You can only manage your own notification preferences",
    ]);
  });

  it("answers as the real service: me without a user is CANNOT_GET_OWN_USER_WITHOUT_USER, an id without one USER_AUTHENTICATION_REQUIRED; an unknown category before the caller", async () => {
    await expectKnownError(
      await api(provider, "/emails/notification-preference/me", { headers: client() }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      400,
    );
    await expectKnownError(
      await api(provider, `/emails/notification-preference/${user.user_id}`, { headers: client() }),
      "USER_AUTHENTICATION_REQUIRED",
      401,
    );
    const other = await signUp(provider);
    const unknownCategory = await patch("0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3", false, as(user), other.user_id);
    expect(unknownCategory.status).toBe(404);
  });

  it("forgets a deleted user's preferences", async () => {
    await expectJson(await patch(marketing!.id, false));
    await expectJson(await api(provider, `/users/${user.user_id}`, { method: "DELETE", headers: server() }));
    expect(provider.store.read.notificationPreferences.size).toBe(0);
  });
});
