import { useState } from "react";
import type { CurrentUser } from "@authsim/sdk";
import { useProject } from "../hooks/use-project.ts";
import { useTeams } from "../hooks/use-user-data.ts";
import { submitHandler, useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { Field, SubmitButton } from "./form-parts.tsx";
import { TeamEntry } from "./team-entry.tsx";

/**
 * The user's teams (each with its members and an invite form, as the user's permissions there allow: team-entry.tsx),
 * and creating one where the project lets clients (spec §6: clientTeamCreationEnabled).
 */
export function TeamsSection({ user }: { user: CurrentUser }) {
  const project = useProject();
  const teams = useTeams();
  const [name, setName] = useState("");
  const create = useAsyncAction(async () => {
    // The creator becomes a member and the new team their selected team (spec §4).
    await user.createTeam({ displayName: name.trim() });
    setName("");
  });
  const onSubmit = submitHandler(create);
  return (
    <section className="authsim-section" aria-labelledby="authsim-teams">
      <h2 id="authsim-teams">Teams</h2>
      {teams.length === 0 ? <p>You are not in any team.</p> : null}
      <ul aria-label="Teams">
        {teams.map((team) => (
          <TeamEntry key={team.id} user={user} team={team} />
        ))}
      </ul>
      {project.config.clientTeamCreationEnabled ? (
        <form onSubmit={onSubmit} aria-label="Create a team">
          <Field label="Team name" name="team-name" value={name} onChange={setName} />
          <ErrorMessage error={create.error} />
          <SubmitButton pending={create.pending}>Create team</SubmitButton>
        </form>
      ) : null}
    </section>
  );
}
