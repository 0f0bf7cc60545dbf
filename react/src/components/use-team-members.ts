import { useStackContext } from "../hooks/use-stack-app.ts";
import { useCachedValue } from "../hooks/use-cached-value.ts";
import type { TeamOf } from "../hooks/use-user-data.ts";

export type TeamMemberOf = Awaited<ReturnType<TeamOf["listUsers"]>>[number];

/**
 * A team's members as another member sees them (GET /team-member-profiles?team_id=, which needs `$read_members`),
 * cached per session like the user's other lists (spec §9) so an accepted invitation shows after the next write.
 * It loads through the current user at load time, not a team object captured by the first render.
 */
export function useTeamMembers(teamId: string): TeamMemberOf[] {
  const { caches } = useStackContext();
  const cached = caches.cached(
    "teamMembers",
    [teamId],
    async () => {
      const snapshot = caches.currentUser.getSnapshot();
      const user = snapshot.status === "ok" ? snapshot.value : await snapshot.promise;
      const team = user ? await user.getTeam(teamId) : null;
      return team ? team.listUsers() : [];
    },
    { signedOutValue: { value: [] } },
  );
  return useCachedValue(cached);
}
