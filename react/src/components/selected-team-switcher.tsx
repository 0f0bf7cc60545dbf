import { useEffect, useId, useState, type FormEvent } from "react";
import type { Team } from "@authsim/sdk";
import { useUser } from "../hooks/use-user.ts";
import { useProject } from "../hooks/use-project.ts";
import { useTeams } from "../hooks/use-user-data.ts";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { useRedirect } from "../navigation/use-redirect.ts";
import { Field, SubmitButton } from "./form-parts.tsx";

/** The published kit's SelectedTeamSwitcher props that make sense without its design system. */
export interface SelectedTeamSwitcherProps {
  /** Where to go after switching (e.g. the team's dashboard). */
  urlMap?: (team: Team) => string;
  /** The team to show as chosen, instead of the user's selected team. */
  selectedTeam?: Team;
  /** Only report the choice (onChange, urlMap); leave the user's selected team as it is. */
  noUpdateSelectedTeam?: boolean;
  /** Offer "no team" as a choice. */
  allowNull?: boolean;
  nullLabel?: string;
  onChange?: (team: Team | null) => void;
}

const NONE = "";

/**
 * Lists the signed-in user's teams and switches the selected team (user.setSelectedTeam; sdk-surface.md §9b), with
 * creating a team where the project lets clients (spec §6 clientTeamCreationEnabled; the new team becomes the selected
 * one, spec §4). Renders nothing when signed out.
 */
export function SelectedTeamSwitcher(props: SelectedTeamSwitcherProps) {
  const user = useUser();
  if (!user) return null;
  return <TeamSwitcher {...props} />;
}

function TeamSwitcher({
  urlMap,
  selectedTeam,
  noUpdateSelectedTeam = false,
  allowNull = false,
  nullLabel = "No team",
  onChange,
}: SelectedTeamSwitcherProps) {
  const user = useUser({ or: "throw" });
  const teams = useTeams();
  const project = useProject();
  const redirect = useRedirect();
  const selectId = useId();
  const currentId = (selectedTeam ?? user.selectedTeam)?.id ?? NONE;
  // The choice shows at once; it gives way when the user's selected team changes (the cache caught up, or elsewhere).
  const [choice, setChoice] = useState<string | null>(null);
  useEffect(() => setChoice(null), [currentId]);
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState("");

  const choose = useAsyncAction(async (teamId: string) => {
    const team = teams.find((t) => t.id === teamId) ?? null;
    setChoice(teamId);
    if (!noUpdateSelectedTeam) await user.setSelectedTeam(team);
    onChange?.(team);
    if (team && urlMap) await redirect(urlMap(team));
  });
  const create = useAsyncAction(async () => {
    const team = await user.createTeam({ displayName: name.trim() });
    setChoice(team.id);
    setName("");
    setCreating(false);
    onChange?.(team);
  });
  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  const value = choice ?? currentId;
  return (
    <div className="authsim-team-switcher">
      <label htmlFor={selectId}>Selected team</label>{" "}
      <select id={selectId} value={value} onChange={(e) => void choose.run(e.target.value)} disabled={choose.pending}>
        {allowNull || value === NONE ? (
          <option value={NONE} disabled={!allowNull}>
            {allowNull ? nullLabel : "Choose a team"}
          </option>
        ) : null}
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.displayName}
          </option>
        ))}
      </select>
      <ErrorMessage error={choose.error} />
      {project.config.clientTeamCreationEnabled ? (
        creating ? (
          <form onSubmit={onCreate} aria-label="Create a team">
            <Field label="New team name" name="team-name" value={name} onChange={setName} />
            <ErrorMessage error={create.error} />
            <SubmitButton pending={create.pending}>Create team</SubmitButton>
            <button type="button" onClick={() => setCreating(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <button type="button" onClick={() => setCreating(true)}>
            Create a team
          </button>
        )
      ) : null}
    </div>
  );
}
