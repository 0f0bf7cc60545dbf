import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anonymousSignUp, api, client, expectJson, expectKnownError, newProvider, server, signUp, type TestProvider } from "../../test-support/api.ts";
import { as, itemIds, patchDevConfig, signInAgain, teamWithMember, verifiedUser } from "../../test-support/teams.ts";
import { MAX_CODE_ATTEMPTS, codeLifetimes } from "./verification-codes.ts";

/** Team invitations: send (outbox), check, details, accept, list, revoke, expiry and the code errors (protocol.md §5.5). */

type Json = Record<string, unknown>;
const CALLBACK = "http://localhost:3000/handler/team-invitation";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

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

  it("needs $invite_members, a trusted callback, a known team and a user (client); a server needs none of it", async () => {
    await patchDevConfig(provider, { team_member_default_permissions: [] });
    const { owner, member, team } = await teamWithMember(provider);
    const refused = await expectKnownError(await send(as(member), team.id, "x@example.com"), "TEAM_PERMISSION_REQUIRED", 401);
    expect(refused.details).toEqual({ team_id: team.id, user_id: member.user_id, permission_id: "$invite_members" });
    await expectKnownError(await send(as(owner), team.id, "x@example.com", "https://evil.example.com/cb"), "REDIRECT_URL_NOT_WHITELISTED", 400);
    await expectKnownError(await send(as(owner), UNKNOWN, "x@example.com"), "TEAM_NOT_FOUND", 404);
    await expectKnownError(await send(client(), team.id, "x@example.com"), "USER_AUTHENTICATION_REQUIRED", 401);
    await expectKnownError(await send(as(owner), team.id, "not an email"), "SCHEMA_ERROR", 400);
    await expectJson(await send(server(), team.id, "x@example.com"));
    // Refused requests sent nothing.
    expect(provider.outbox.list({ kind: "team_invitation" }).map((m) => m.to[0])).toEqual(["x@example.com"]);
  });
});

describe("accepting by code", () => {
  it("checks and reads details without using the code, then accepts: the user joins with the member defaults", async () => {
    const { team, code } = await invited();
    const invitee = await verifiedUser(provider, "invitee@example.com");
    expect(await expectJson(await withCode("/check-code", as(invitee), code))).toEqual({ is_code_valid: true });
    expect(await expectJson(await withCode("/details", as(invitee), code))).toEqual({ team_id: team.id, team_display_name: team.display_name });
    expect(await expectJson(await withCode("", as(invitee), code))).toEqual({});
    expect(await itemIds(await api(provider, "/teams?user_id=me", { headers: as(invitee) }))).toEqual([team.id]);
    const perms = await itemIds(await api(provider, `/team-permissions?team_id=${team.id}&user_id=me&recursive=false`, { headers: as(invitee) }));
    expect(perms).toEqual(["team_member"]);
    await expectKnownError(await withCode("", as(invitee), code), "VERIFICATION_CODE_ALREADY_USED", 409);
    await expectKnownError(await withCode("/check-code", as(invitee), code), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("refuses an unknown code, an expired one (by the provider's clock) and a user with no user", async () => {
    const { code } = await invited();
    const invitee = await verifiedUser(provider, "invitee@example.com");
    await expectKnownError(await withCode("", as(invitee), "0".repeat(45)), "VERIFICATION_CODE_NOT_FOUND", 404);
    await expectKnownError(await withCode("/details", client(), code), "USER_AUTHENTICATION_REQUIRED", 401);
    provider.clock.advance(codeLifetimes.team_invitation);
    const later = await signInAgain(provider, invitee);
    await expectKnownError(await withCode("/details", as(later), code), "VERIFICATION_CODE_EXPIRED", 400);
    await expectKnownError(await withCode("", as(later), code), "VERIFICATION_CODE_EXPIRED", 400);
  });

  it("stops accepting after too many wrong guesses at the code's nonce, even though each guess was refused", async () => {
    const { code } = await invited();
    const invitee = await verifiedUser(provider, "invitee@example.com");
    const wrong = (i: number) => `${i.toString(36).padStart(6, "x")}${code.slice(6)}`;
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) await expectKnownError(await withCode("", as(invitee), wrong(i)), "VERIFICATION_CODE_NOT_FOUND", 404);
    await expectKnownError(await withCode("", as(invitee), code), "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400);
  });

  it("refuses a user who has not proven the invited address, and restricted users; a refusal leaves the code usable", async () => {
    const { code } = await invited();
    const stranger = await verifiedUser(provider, "someone-else@example.com");
    await expectKnownError(await withCode("", as(stranger), code), "TEAM_INVITATION_EMAIL_MISMATCH", 403);
    const unverified = await signUp(provider, { email: "invitee@example.com" });
    await expectKnownError(await withCode("", as(unverified), code), "TEAM_INVITATION_EMAIL_MISMATCH", 403);
    const anonymous = await anonymousSignUp(provider);
    const headers = client({ accessToken: anonymous.access_token, allowAnonymousUser: "true" });
    const restricted = await expectKnownError(await withCode("", headers, code), "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", 403);
    expect(restricted.details).toEqual({ restricted_reason: { type: "anonymous" } });
    await api(provider, `/users/${unverified.user_id}`, { method: "PATCH", headers: server(), json: { primary_email_verified: true } });
    expect(await expectJson(await withCode("", as(unverified), code))).toEqual({});
  });

  it("uses the code up when an existing member accepts, without a second membership", async () => {
    const { team, code } = await invited("member-again@example.com");
    const again = await verifiedUser(provider, "member-again@example.com");
    await api(provider, `/team-memberships/${team.id}/${again.user_id}`, { method: "POST", headers: server(), json: {} });
    expect(await expectJson(await withCode("", as(again), code))).toEqual({});
    await expectKnownError(await withCode("/check-code", as(again), code), "VERIFICATION_CODE_ALREADY_USED", 409);
  });
});

describe("listing, accepting by id and revoking", () => {
  it("lists a team's pending invitations to a member with $read_members and $invite_members", async () => {
    const { owner, member, team, id } = await invited();
    const expected = { id, team_id: team.id, team_display_name: team.display_name, expires_at_millis: provider.clock.now() + codeLifetimes.team_invitation, recipient_email: "invitee@example.com" };
    expect(await expectJson(await api(provider, `/team-invitations?team_id=${team.id}`, { headers: as(owner) }))).toEqual({ items: [expected], is_paginated: false });
    expect(await itemIds(await api(provider, `/team-invitations?team_id=${team.id}`, { headers: as(member) }))).toEqual([id]);
    const outsider = await signUp(provider);
    await expectKnownError(await api(provider, `/team-invitations?team_id=${team.id}`, { headers: as(outsider) }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    for (const [query, text] of [["", "Must specify either team_id or user_id"], [`?team_id=${team.id}&user_id=me`, "Cannot specify both team_id and user_id"]]) {
      const refused = await api(provider, `/team-invitations${query}`, { headers: server() });
      expect([refused.status, await refused.text()]).toEqual([400, text]);
    }
    provider.clock.advance(codeLifetimes.team_invitation);
    expect(await itemIds(await api(provider, `/team-invitations?team_id=${team.id}`, { headers: as(await signInAgain(provider, owner)) }))).toEqual([]);
  });

  it("lists the invitations to a user's verified emails (user_id=me), which it accepts by id", async () => {
    const { team, id } = await invited();
    const invitee = await verifiedUser(provider, "INVITEE@example.com");
    const mine = await expectJson<{ items: Json[] }>(await api(provider, "/team-invitations?user_id=me", { headers: as(invitee) }));
    expect(mine.items).toMatchObject([{ id, team_id: team.id, team_display_name: team.display_name }]);
    const accept = (userId: string, headers: ReturnType<typeof client>) => api(provider, `/team-invitations/${id}/accept?user_id=${userId}`, { method: "POST", headers });
    const other = await signUp(provider);
    await expectKnownError(await accept(other.user_id, as(invitee)), "INSUFFICIENT_ACCESS_TYPE", 401);
    expect(await expectJson(await accept("me", as(invitee)))).toEqual({});
    expect(await itemIds(await api(provider, "/teams?user_id=me", { headers: as(invitee) }))).toEqual([team.id]);
    await expectKnownError(await accept("me", as(invitee)), "VERIFICATION_CODE_ALREADY_USED", 409);
    expect(await itemIds(await api(provider, "/team-invitations?user_id=me", { headers: as(invitee) }))).toEqual([]);
  });

  it("revokes with $remove_members: the code stops working; unknown ids are VERIFICATION_CODE_NOT_FOUND", async () => {
    const { owner, team, id, code } = await invited();
    const invitee = await verifiedUser(provider, "invitee@example.com");
    const revoke = (invitationId: string, headers = as(owner)) => api(provider, `/team-invitations/${invitationId}?team_id=${team.id}`, { method: "DELETE", headers });
    await expectKnownError(await revoke(id, as(invitee)), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(await expectJson(await revoke(id))).toEqual({ success: true });
    await expectKnownError(await withCode("", as(invitee), code), "VERIFICATION_CODE_NOT_FOUND", 404);
    await expectKnownError(await revoke(id), "VERIFICATION_CODE_NOT_FOUND", 404);
    await expectKnownError(await revoke(UNKNOWN, server()), "VERIFICATION_CODE_NOT_FOUND", 404);
  });
});
