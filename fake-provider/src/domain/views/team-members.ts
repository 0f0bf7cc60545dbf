import type {
  ClientTeamMemberProfileJson,
  ServerTeamMemberProfileJson,
  TeamMembershipJson,
} from "@authsim/sdk/contract";
import type { MemberProfile } from "../ops/teams/team-members.ts";
import type { TeamMembershipRecord } from "../store/records.ts";
import type { Tables } from "../store/store.ts";
import { serverUserView } from "./users.ts";

/** Memberships and member profiles on the wire (protocol.md §5.4). */

export function membershipView(membership: TeamMembershipRecord): TeamMembershipJson {
  return { team_id: membership.teamId, user_id: membership.userId };
}

export function clientMemberProfileView(profile: MemberProfile): ClientTeamMemberProfileJson {
  return {
    team_id: profile.membership.teamId,
    user_id: profile.membership.userId,
    display_name: profile.displayName,
    profile_image_url: profile.profileImageUrl,
  };
}

/** The server view adds the member's server user view. */
export function serverMemberProfileView(tables: Tables, profile: MemberProfile): ServerTeamMemberProfileJson {
  return { ...clientMemberProfileView(profile), user: serverUserView(tables, profile.user) };
}
