import { Suspense } from "react";
import type { CurrentUser } from "@authsim/sdk";
import { usePermissions, type TeamOf } from "../hooks/use-user-data.ts";
import { TeamInviteForm } from "./team-invite-form.tsx";
import { TeamMembers } from "./team-members.tsx";

/**
 * What the user may do in a team follows their permissions there (spec §6): `$read_members` shows the members,
 * `$invite_members` the invite form. The list is the SDK's recursive listing (hasPermission means "in this list"),
 * read through the cached hook so it loads once per team and refreshes after writes, like the rest of the page.
 */
function TeamTools({ user, team }: { user: CurrentUser; team: TeamOf }) {
  const granted = new Set(usePermissions(team).map((p) => p.id));
  return (
    <>
      {granted.has("$read_members") ? <TeamMembers user={user} team={team} /> : null}
      {granted.has("$invite_members") ? <TeamInviteForm team={team} /> : null}
    </>
  );
}

/**
 * One team: its name, then its tools once the permissions load, behind a boundary of its own so a new team does not
 * send the whole page back to its loading state meanwhile.
 */
export function TeamEntry({ user, team }: { user: CurrentUser; team: TeamOf }) {
  return (
    <li>
      <h3>{team.displayName}</h3>
      <Suspense
        fallback={
          <p role="status" className="authsim-muted">
            Loading…
          </p>
        }
      >
        <TeamTools user={user} team={team} />
      </Suspense>
    </li>
  );
}
