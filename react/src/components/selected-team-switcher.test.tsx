import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { configureProject } from "../test-support/project-config.ts";
import { createTestApp, PASSWORD, renderWithApp, uniqueEmail, type TestApp } from "../test-support/render-app.tsx";
import { SelectedTeamSwitcher } from "./selected-team-switcher.tsx";

/** SelectedTeamSwitcher (the published kit's name): the user's teams, switching the selected one, creating one. */
afterEach(cleanup);

async function userWithTeams(t: TestApp, ...names: string[]): Promise<string[]> {
  await t.app.signUpWithCredential({
    email: uniqueEmail("teams"),
    password: PASSWORD,
    noRedirect: true,
    noVerificationCallback: true,
  });
  const user = await t.app.getUser({ or: "throw" });
  const ids: string[] = [];
  for (const displayName of names) ids.push((await user.createTeam({ displayName })).id);
  return ids;
}

const select = () => screen.getByLabelText("Selected team") as HTMLSelectElement;
const selectedTeamId = async (t: TestApp) => (await t.app.getUser({ or: "throw" })).selectedTeam?.id;

describe("SelectedTeamSwitcher", () => {
  it("lists the teams with the selected one chosen, and switches it (then goes to urlMap's page)", async () => {
    const t = createTestApp();
    const [first, second] = await userWithTeams(t, "Analytical Engines", "Difference Engines");
    const changes: (string | null)[] = [];
    await renderWithApp(
      t,
      <SelectedTeamSwitcher
        urlMap={(team) => `/teams/${team.id}`}
        onChange={(team) => void changes.push(team?.id ?? null)}
      />,
    );
    await waitFor(() =>
      expect([...select().options].map((o) => o.textContent)).toEqual(["Analytical Engines", "Difference Engines"]),
    );
    // Creating a team selects it (spec §4): the last one created.
    expect(select().value).toBe(second);
    await act(async () => fireEvent.change(select(), { target: { value: first } }));
    await waitFor(async () => expect(await selectedTeamId(t)).toBe(first));
    expect(select().value).toBe(first);
    expect(changes).toEqual([first]);
    await waitFor(() => expect(t.navigations).toEqual([`/teams/${first}`]));
  });

  it("only reports the choice with noUpdateSelectedTeam, and offers no team with allowNull", async () => {
    const t = createTestApp();
    const [first, second] = await userWithTeams(t, "One", "Two");
    const changes: (string | null)[] = [];
    await renderWithApp(
      t,
      <SelectedTeamSwitcher
        noUpdateSelectedTeam
        allowNull
        nullLabel="Personal"
        onChange={(team) => void changes.push(team?.id ?? null)}
      />,
    );
    await waitFor(() => expect([...select().options].map((o) => o.textContent)).toEqual(["Personal", "One", "Two"]));
    await act(async () => fireEvent.change(select(), { target: { value: "" } }));
    await act(async () => fireEvent.change(select(), { target: { value: first } }));
    expect(changes).toEqual([null, first]);
    expect(await selectedTeamId(t)).toBe(second);
  });

  it("creates a team, which becomes the selected one, where the project allows it", async () => {
    const t = createTestApp();
    await userWithTeams(t, "Old team");
    await renderWithApp(t, <SelectedTeamSwitcher />);
    fireEvent.click(await screen.findByRole("button", { name: "Create a team" }));
    fireEvent.change(screen.getByLabelText("New team name"), { target: { value: "New team" } });
    fireEvent.click(screen.getByRole("button", { name: "Create team" }));
    await waitFor(() => expect(select().selectedOptions[0]?.textContent).toBe("New team"));
    expect((await t.app.getUser({ or: "throw" })).selectedTeam?.displayName).toBe("New team");
  });

  it("offers no creation where clients may not create teams, and renders nothing when signed out", async () => {
    const t = createTestApp();
    const { container } = await renderWithApp(t, <SelectedTeamSwitcher />);
    expect(container.innerHTML).toBe("");
    cleanup();
    await configureProject(t, { clientTeamCreationEnabled: false });
    await userWithTeams(t);
    await renderWithApp(t, <SelectedTeamSwitcher />);
    await screen.findByLabelText("Selected team");
    expect(screen.queryByRole("button", { name: "Create a team" })).toBeNull();
  });
});
