import type { CurrentUser } from "@authsim/sdk";
import type { TeamOf } from "../hooks/use-user-data.ts";
import { useTeamMembers } from "./use-team-members.ts";

/** A team's members by their team profile name; the signed-in user is marked, so a list of one still reads clearly. */
export function TeamMembers({ user, team }: { user: CurrentUser; team: TeamOf }) {
  const members = useTeamMembers(team.id);
  return (
    <ul aria-label={`Members of ${team.displayName}`}>
      {members.map((member) => (
        <li key={member.id}>
          {member.teamProfile.displayName ?? "A member without a name"}
          {member.id === user.id ? " (you)" : ""}
        </li>
      ))}
    </ul>
  );
}
