import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { clientCachesSymbol, type CurrentUser } from "@authsim/sdk";
import { Handler } from "../handler/handler.tsx";
import { createTestApp, PASSWORD, renderWithApp, uniqueEmail, type TestApp } from "../test-support/render-app.tsx";
import { serverAppOf } from "../test-support/server-app.ts";

/** Account settings' teams: each team's members and its invite form, as the user's permissions in it allow (spec §6). */
afterEach(cleanup);

const TEAM = "Babbage & Co";

/** A user with a team they created (creators get team_admin, which holds $read_members and $invite_members). */
async function teamOwner(t: TestApp): Promise<{ user: CurrentUser; teamId: string }> {
  await t.app.signUpWithCredential({
    email: uniqueEmail("owner"),
    password: PASSWORD,
    noRedirect: true,
    noVerificationCallback: true,
  });
  const user = await t.app.getUser({ or: "throw" });
  const team = await user.createTeam({ displayName: TEAM });
  return { user, teamId: team.id };
}

async function openSettings(t: TestApp): Promise<void> {
  await renderWithApp(t, <Handler location="/handler/account-settings#teams" />);
  await screen.findByRole("heading", { name: "Account settings" });
  await screen.findByRole("heading", { name: TEAM });
}

/** Takes the creator's grant away through the server API, as a backend would: no team permission is left. */
async function revokeTeamAdmin(t: TestApp, userId: string, teamId: string): Promise<void> {
  const user = await serverAppOf(t).getUser(userId);
  await user!.revokePermission({ id: teamId }, "team_admin");
}

const inviteForm = () => within(screen.getByRole("form", { name: `Invite a member to ${TEAM}` }));

describe("the teams section", () => {
  it("invites a member by email: the invitee gets a team-invitation link, and joins the members list", async () => {
    const t = createTestApp();
    await teamOwner(t);
    await openSettings(t);
    const members = await screen.findByRole("list", { name: `Members of ${TEAM}` });
    expect(
      within(members)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["A member without a name (you)"]);

    const invitee = uniqueEmail("invitee");
    fireEvent.change(inviteForm().getByLabelText("Email to invite"), { target: { value: invitee } });
    fireEvent.click(inviteForm().getByRole("button", { name: "Send invitation" }));
    await waitFor(() => expect(inviteForm().getByRole("status").textContent).toBe(`Invitation sent to ${invitee}.`));
    expect((inviteForm().getByLabelText("Email to invite") as HTMLInputElement).value).toBe("");

    const mail = await t.provider.outbox.waitFor({ to: invitee, kind: "team_invitation" });
    const link = new URL(mail.link ?? "");
    expect([link.origin, link.pathname, link.searchParams.get("code")]).toEqual([
      "http://localhost:3000",
      "/handler/team-invitation",
      mail.code,
    ]);

    // The invitee proves the address and accepts in their own app; this page learns of it on its next refresh.
    const other = t.otherApp();
    await other.signUpWithCredential({ email: invitee, password: PASSWORD, noRedirect: true });
    const verification = await t.provider.outbox.waitFor({ to: invitee, kind: "email_verification" });
    expect((await other.verifyEmail(verification.code ?? "")).status).toBe("ok");
    await (await other.getUser({ or: "throw" })).update({ displayName: "Grace" });
    expect((await other.acceptTeamInvitation(mail.code ?? "")).status).toBe("ok");
    await act(async () => t.app[clientCachesSymbol]().refreshAll());
    await waitFor(() =>
      expect(
        within(members)
          .getAllByRole("listitem")
          .map((li) => li.textContent),
      ).toEqual(["A member without a name (you)", "Grace"]),
    );
  });

  it("shows a known error with the catalogue's message when the permission went away meanwhile", async () => {
    const t = createTestApp();
    const { user, teamId } = await teamOwner(t);
    await openSettings(t);
    // The form appears once the team's permissions have loaded; only then is it taken away behind the page's back.
    await screen.findByRole("form", { name: `Invite a member to ${TEAM}` });
    await revokeTeamAdmin(t, user.id, teamId);
    fireEvent.change(inviteForm().getByLabelText("Email to invite"), { target: { value: "someone@example.com" } });
    fireEvent.click(inviteForm().getByRole("button", { name: "Send invitation" }));
    expect((await inviteForm().findByRole("alert")).textContent).toBe(
      `User ${user.id} does not have permission $invite_members in team ${teamId}.`,
    );
    expect(inviteForm().queryByRole("status")).toBeNull();
    expect(t.provider.outbox.list({ to: "someone@example.com" })).toEqual([]);
  });

  it("shows neither the invite form nor the members to a member without those permissions", async () => {
    const t = createTestApp();
    const { user, teamId } = await teamOwner(t);
    await revokeTeamAdmin(t, user.id, teamId);
    await openSettings(t);
    // The permissions load after the team's name: absences count only once they have.
    const team = within(screen.getByRole("heading", { name: TEAM }).closest("li")!);
    await waitFor(() => expect(team.queryByRole("status")).toBeNull());
    expect(screen.queryByRole("form", { name: `Invite a member to ${TEAM}` })).toBeNull();
    expect(screen.queryByLabelText("Email to invite")).toBeNull();
    expect(screen.queryByRole("list", { name: `Members of ${TEAM}` })).toBeNull();
  });
});
