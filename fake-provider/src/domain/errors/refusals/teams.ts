import type { Refusal } from "./refusal.ts";

/** Plain-text refusals of teams, invitations, members, permissions (domain/ops/teams/). */
export const teamsRefusals = {
  // domain/ops/teams/invitations.ts
  cannotSpecifyBothTeamId: { status: 400, text: "Cannot specify both team_id and user_id" },
  specifyEitherTeamIdUser: { status: 400, text: "Must specify either team_id or user_id" },
  // domain/ops/teams/permission-requests.ts
  clientListOwnPermissionsOnly: {
    status: 403,
    text: 'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user',
    operations: ["listProjectPermissions", "listTeamPermissions"],
  },
  // domain/ops/teams/team-members.ts
  teamIdRequiredAccessType: { status: 400, text: "team_id is required for access type client" },
  cannotUpdateAnotherProfile: { status: 403, text: "Cannot update another user's profile" },
  // domain/ops/teams/teams.ts
  youCannotCreateTeamAs: {
    status: 403,
    text: "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.",
  },
  clientListOwnTeamsOnly: {
    status: 403,
    text: 'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user',
  },
} as const satisfies Readonly<Record<string, Refusal>>;
