import { describe, expect, it } from "vitest";
import type { SessionJson } from "@authsim/sdk/contract";
import {
  admin,
  api,
  client,
  eachTestSignedUp,
  expectJson,
  expectKnownError,
  refreshGrant,
  server,
  signUp,
  START_MILLIS,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { as } from "../../../test-support/account.ts";

/** Listing and ending sessions over HTTP (protocol.md §5.7, §6.2); geo info from the request headers of §2.1. Rules: session-list.seam.test.ts. */

let provider: TestProvider;
let user: SignedUp;
eachTestSignedUp((p, u) => ((provider = p), (user = u)));

const GEO_HEADERS = {
  "x-forwarded-for": "203.0.113.7, 10.0.0.1",
  "x-vercel-ip-country": "CH",
  "x-vercel-ip-country-region": "ZH",
  "x-vercel-ip-city": "Z%C3%BCrich",
  "x-vercel-ip-latitude": "47.37",
  "x-vercel-ip-longitude": "8.54",
  "x-vercel-ip-timezone": "Europe/Zurich",
};

async function list(headers = as(user), userId = "me"): Promise<SessionJson[]> {
  const body = await expectJson<{ items: SessionJson[]; is_paginated: boolean }>(
    await api(provider, `/auth/sessions?user_id=${userId}`, { headers }),
  );
  expect(body.is_paginated).toBe(false);
  return body.items;
}

async function signInAgain(raw: Record<string, string> = {}): Promise<SignedUp> {
  const body = await expectJson<SignedUp>(
    await api(provider, "/auth/password/sign-in", {
      headers: client(),
      raw,
      json: { email: user.email, password: user.password },
    }),
  );
  return { ...user, ...body };
}

describe("GET /auth/sessions", () => {
  it("lists the user's sessions newest first, marking the current one", async () => {
    provider.clock.advance(1_000);
    const second = await signInAgain();
    const items = await list(as(second));
    expect(items).toHaveLength(2);
    expect(items[0]).toEqual({
      id: expect.any(String),
      user_id: user.user_id,
      created_at: START_MILLIS + 1_000,
      last_used_at: START_MILLIS + 1_000,
      is_impersonation: false,
      is_current_session: true,
    });
    expect(items[1]).toMatchObject({ created_at: START_MILLIS, is_current_session: false });
    expect((await list(as(user))).map((s) => s.is_current_session)).toEqual([false, true]);
  });

  it("reports where the session was opened from the forwarding headers", async () => {
    const located = await signInAgain(GEO_HEADERS);
    const current = (await list(as(located))).find((s) => s.is_current_session)!;
    expect(current.last_used_at_end_user_ip_info).toEqual({
      ip: "203.0.113.7",
      countryCode: "CH",
      regionCode: "ZH",
      cityName: "Zürich",
      latitude: 47.37,
      longitude: 8.54,
      tzIdentifier: "Europe/Zurich",
    });
    expect((await list(as(located))).find((s) => !s.is_current_session)!.last_used_at_end_user_ip_info).toBeUndefined();
  });

  it("lists impersonation sessions to admins only", async () => {
    await expectJson(
      await api(provider, "/auth/sessions", {
        headers: server(),
        json: { user_id: user.user_id, is_impersonation: true },
      }),
    );
    expect(await list()).toHaveLength(1);
    expect(await list(server(), user.user_id)).toHaveLength(1);
    const asAdmin = await list(admin(), user.user_id);
    expect(asAdmin.map((s) => s.is_impersonation).sort()).toEqual([false, true]);
  });

  it("keeps a client to its own sessions (403), and needs user_id (SCHEMA_ERROR)", async () => {
    const other = await signUp(provider);
    expect((await api(provider, `/auth/sessions?user_id=${other.user_id}`, { headers: as(user) })).status).toBe(403);
    await expectKnownError(await api(provider, "/auth/sessions", { headers: as(user) }), "SCHEMA_ERROR", 400);
    await expectKnownError(
      await api(provider, "/auth/sessions?user_id=me", { headers: client() }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      400,
    );
  });

  it("answers a server asking about a user id nobody has with an empty list, as the real listing does", async () => {
    expect(await list(server(), "6f1b3c1e-2a4d-4e5f-8a9b-0c1d2e3f4a5b")).toEqual([]);
    expect((await list(server(), user.user_id)).length).toBe(1);
  });
});

describe("DELETE /auth/sessions/{id}", () => {
  it("ends another session of the user, whose refresh token then stops working", async () => {
    const second = await signInAgain();
    const other = (await list(as(user))).find((s) => !s.is_current_session)!;
    const response = await api(provider, `/auth/sessions/${other.id}?user_id=me`, {
      method: "DELETE",
      headers: as(user),
    });
    expect(await expectJson(response)).toEqual({ success: true });
    await expectKnownError(
      await refreshGrant(provider, second.refresh_token),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
      401,
    );
    expect(await list()).toHaveLength(1);
  });
});
