import { expect } from "vitest";
import type { ContactChannelJson } from "@authsim/sdk/contract";
import { DEV, api, client, expectJson, server, type Fields, type SignedUp, type TestProvider } from "./api.ts";

const DEV_PROJECT_ID = DEV.id;

/** Helpers for the account-surface tests (contact channels, verification flows, API keys, sessions). */

export const CALLBACK = "http://localhost:3000/handler/callback";

/** Client headers carrying a signed-up user's access token. */
export const as = (user: Pick<SignedUp, "access_token">, extra: Fields = {}): Fields =>
  client({ accessToken: user.access_token, ...extra });

export async function listChannels(
  provider: TestProvider,
  user: Pick<SignedUp, "access_token">,
): Promise<ContactChannelJson[]> {
  const body = await expectJson<{ items: ContactChannelJson[]; is_paginated: boolean }>(
    await api(provider, "/contact-channels?user_id=me", { headers: as(user) }),
  );
  expect(body.is_paginated).toBe(false);
  return body.items;
}

export async function addChannel(
  provider: TestProvider,
  user: Pick<SignedUp, "access_token">,
  fields: Record<string, unknown>,
): Promise<ContactChannelJson> {
  const response = await api(provider, "/contact-channels", {
    headers: as(user),
    json: { user_id: "me", type: "email", used_for_auth: false, ...fields },
  });
  return expectJson<ContactChannelJson>(response, 201);
}

export async function serverUser(provider: TestProvider, userId: string): Promise<Record<string, unknown>> {
  return expectJson(await api(provider, `/users/${userId}`, { headers: server() }));
}

/** The code of the latest email of a kind sent to `to` (the outbox captures it, protocol.md §7.2–7.3). */
export function latestCode(
  provider: TestProvider,
  to: string,
  kind: "email_verification" | "password_reset" | "magic_link",
): string {
  const email = provider.outbox.latest({ to, kind });
  if (!email?.code) throw new Error(`No ${kind} email with a code was sent to ${to}.`);
  return email.code;
}

/**
 * A team of the dev project with these members, written straight into the store: the API-key tests need a team, and
 * the teams area (another issue) owns the endpoints that make one.
 */
export async function seedTeam(
  provider: TestProvider,
  memberIds: readonly string[],
  id = "5d0f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b",
): Promise<string> {
  const projectId = DEV_PROJECT_ID;
  const now = provider.clock.now();
  await provider.store.transact((tables) => {
    tables.teams.set(id, {
      id,
      projectId,
      displayName: "Key holders",
      profileImageUrl: null,
      clientMetadata: null,
      clientReadOnlyMetadata: null,
      serverMetadata: null,
      createdAtMillis: now,
    });
    for (const userId of memberIds)
      tables.teamMemberships.set(`${id}:${userId}`, { projectId, teamId: id, userId, createdAtMillis: now });
  });
  return id;
}
