import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { as, itemIds, signInAgain, teamWithMember, verifiedUser } from "../../../test-support/teams.ts";
import { codeLifetimes } from "../sign-in/verification-codes.ts";

/** Team invitations over HTTP: the answers of send, check, details, accept and list (protocol.md §5.5). The rules: invitations.seam.test.ts. */

type Json = Record<string, unknown>;
const CALLBACK = "http://localhost:3000/handler/team-invitation";

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const send = (headers: ReturnType<typeof client>, teamId: string, email: string, callback = CALLBACK) =>
  api(provider, "/team-invitations/send-code", { headers, json: { email, team_id: teamId, callback_url: callback } });
const withCode = (path: "" | "/check-code" | "/details", headers: ReturnType<typeof client>, code: string) =>
  api(provider, `/team-invitations/accept${path}`, { headers, json: { code } });

/** A team, its owner, and an invitation to a verified invitee; returns the code from the outbox. */
async function invited(email = "invitee@example.com") {
  const { owner, member, team } = await teamWithMember(provider);
  const sent = await expectJson<{ success: boolean; id: string }>(await send(as(owner), team.id, email));
  const mail = provider.outbox.latest({ to: email, kind: "team_invitation" })!;
  return { owner, member, team, id: sent.id, code: mail.code!, mail };
}

describe("POST /team-invitations/send-code", () => {
  it("answers {success, id} and puts the email in the outbox with its code and the callback link", async () => {
    const { team, id, code, mail } = await invited();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(mail.to).toEqual(["invitee@example.com"]);
    expect(code).toMatch(/^[0-9a-z]{45}$/);
    expect(mail.link).toBe(`${CALLBACK}?code=${code}`);
    expect(mail.subject).toContain(team.display_name);
    expect(mail.text).toContain(mail.link);
  });
});

describe("accepting by code", () => {
  it("checks and reads details without using the code, then accepts: the user joins with the member defaults", async () => {
    const { team, code } = await invited();
    const invitee = await verifiedUser(provider, "invitee@example.com");
    expect(await expectJson(await withCode("/check-code", as(invitee), code))).toEqual({ is_code_valid: true });
    expect(await expectJson(await withCode("/details", as(invitee), code))).toEqual({
      team_id: team.id,
      team_display_name: team.display_name,
    });
    expect(await expectJson(await withCode("", as(invitee), code))).toEqual({});
    expect(await itemIds(await api(provider, "/teams?user_id=me", { headers: as(invitee) }))).toEqual([team.id]);
    const perms = await itemIds(
      await api(provider, `/team-permissions?team_id=${team.id}&user_id=me&recursive=false`, { headers: as(invitee) }),
    );
    expect(perms).toEqual(["team_member"]);
    await expectKnownError(await withCode("", as(invitee), code), "VERIFICATION_CODE_ALREADY_USED", 409);
    await expectKnownError(await withCode("/check-code", as(invitee), code), "VERIFICATION_CODE_ALREADY_USED", 409);
  });
});

describe("listing, accepting by id and revoking", () => {
  it("lists a team's pending invitations to a member with $read_members and $invite_members", async () => {
    const { owner, member, team, id } = await invited();
    const expected = {
      id,
      team_id: team.id,
      team_display_name: team.display_name,
      expires_at_millis: provider.clock.now() + codeLifetimes.team_invitation,
      recipient_email: "invitee@example.com",
    };
    expect(
      await expectJson(await api(provider, `/team-invitations?team_id=${team.id}`, { headers: as(owner) })),
    ).toEqual({ items: [expected], is_paginated: false });
    expect(await itemIds(await api(provider, `/team-invitations?team_id=${team.id}`, { headers: as(member) }))).toEqual(
      [id],
    );
    const outsider = await signUp(provider);
    await expectKnownError(
      await api(provider, `/team-invitations?team_id=${team.id}`, { headers: as(outsider) }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      404,
    );
    for (const [query, text] of [
      ["", "Must specify either team_id or user_id"],
      [`?team_id=${team.id}&user_id=me`, "Cannot specify both team_id and user_id"],
    ]) {
      const refused = await api(provider, `/team-invitations${query}`, { headers: server() });
      expect([refused.status, await refused.text()]).toEqual([400, text]);
    }
    provider.clock.advance(codeLifetimes.team_invitation);
    expect(
      await itemIds(
        await api(provider, `/team-invitations?team_id=${team.id}`, {
          headers: as(await signInAgain(provider, owner)),
        }),
      ),
    ).toEqual([]);
  });

  it("lists the invitations to a user's verified emails (user_id=me), which it accepts by id", async () => {
    const { team, id } = await invited();
    const invitee = await verifiedUser(provider, "INVITEE@example.com");
    const mine = await expectJson<{ items: Json[] }>(
      await api(provider, "/team-invitations?user_id=me", { headers: as(invitee) }),
    );
    expect(mine.items).toMatchObject([{ id, team_id: team.id, team_display_name: team.display_name }]);
    const accept = (userId: string, headers: ReturnType<typeof client>) =>
      api(provider, `/team-invitations/${id}/accept?user_id=${userId}`, { method: "POST", headers });
    const other = await signUp(provider);
    await expectKnownError(await accept(other.user_id, as(invitee)), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expect(await expectJson(await accept("me", as(invitee)))).toEqual({});
    expect(await itemIds(await api(provider, "/teams?user_id=me", { headers: as(invitee) }))).toEqual([team.id]);
    await expectKnownError(await accept("me", as(invitee)), "VERIFICATION_CODE_NOT_FOUND", 404);
    expect(await itemIds(await api(provider, "/team-invitations?user_id=me", { headers: as(invitee) }))).toEqual([]);
  });
});
