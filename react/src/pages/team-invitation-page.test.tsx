import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Handler } from "../handler/handler.tsx";
import { createTestApp, PASSWORD, renderWithApp, uniqueEmail, type TestApp } from "../test-support/render-app.tsx";

/** The team-invitation page (spec §2): the emailed link's code, the team's name, accepting, used and unknown codes. */
afterEach(cleanup);

const pathOf = (link: string | null) => {
  const url = new URL(link ?? "");
  return `${url.pathname}${url.search}`;
};

/** Signs this app's user up with a verified email (invitations go to verified addresses), and invites it. */
async function invited(t: TestApp, teamName: string): Promise<string> {
  const email = uniqueEmail("invitee");
  await t.app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
  const verification = await t.provider.outbox.waitFor({ to: email, kind: "email_verification" });
  expect((await t.app.verifyEmail(verification.code ?? "")).status).toBe("ok");
  const inviter = t.otherApp();
  await inviter.signUpWithCredential({
    email: uniqueEmail("inviter"),
    password: PASSWORD,
    noRedirect: true,
    noVerificationCallback: true,
  });
  const team = await (await inviter.getUser({ or: "throw" })).createTeam({ displayName: teamName });
  await team.inviteUser({ email });
  const mail = await t.provider.outbox.waitFor({ to: email, kind: "team_invitation" });
  return pathOf(mail.link);
}

describe("the team invitation page", () => {
  it("shows the team, accepts, and then reports the code as used", async () => {
    const t = createTestApp();
    const link = await invited(t, "Babbage & Co");
    expect(link).toMatch(/^\/handler\/team-invitation\?code=/);
    await renderWithApp(t, <Handler location={link} />);
    expect((await screen.findByText(/You are invited to join/)).textContent).toBe(
      "You are invited to join Babbage & Co.",
    );
    fireEvent.click(screen.getByRole("button", { name: "Accept invitation" }));
    expect((await screen.findByText(/^You joined/)).textContent).toBe("You joined Babbage & Co.");
    const user = await t.app.getUser({ or: "throw" });
    expect((await user.listTeams()).map((team) => team.displayName)).toEqual(["Babbage & Co"]);
    cleanup();

    await renderWithApp(t, <Handler location={link} />);
    expect((await screen.findByRole("alert")).textContent).toBe("The verification link has already been used.");
    expect(screen.queryByRole("button", { name: "Accept invitation" })).toBeNull();
  });

  it("shows the catalogue's message for an unknown code", async () => {
    const t = createTestApp();
    await t.app.signUpWithCredential({
      email: uniqueEmail(),
      password: PASSWORD,
      noRedirect: true,
      noVerificationCallback: true,
    });
    await renderWithApp(t, <Handler location="/handler/team-invitation?code=not-a-code" />);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The verification code does not exist for this project.",
    );
  });

  it("sends a signed-out visitor to sign-in, coming back here afterwards (spec §2)", async () => {
    const t = createTestApp();
    const page = "http://localhost:3000/handler/team-invitation?code=abc";
    await renderWithApp(t, <Handler location={page} />);
    await waitFor(() =>
      expect(t.navigations).toEqual([`/handler/sign-in?after_auth_return_to=${encodeURIComponent(page)}`]),
    );
    expect(screen.queryByRole("button", { name: "Accept invitation" })).toBeNull();
  });

  it("says the link is incomplete without a code", async () => {
    const t = createTestApp();
    await t.app.signUpWithCredential({
      email: uniqueEmail(),
      password: PASSWORD,
      noRedirect: true,
      noVerificationCallback: true,
    });
    await renderWithApp(t, <Handler location="/handler/team-invitation" />);
    expect((await screen.findByRole("alert")).textContent).toBe("This invitation link is incomplete: it has no code.");
  });
});
