import type { ClientTeamJson } from "../contract/areas/teams.ts";

/** The team data carried on a user (selectedTeam); the team endpoints arrive with the teams issue. */
export interface Team {
  readonly id: ClientTeamJson["id"];
  readonly displayName: ClientTeamJson["display_name"];
  readonly profileImageUrl: ClientTeamJson["profile_image_url"];
  readonly clientMetadata: ClientTeamJson["client_metadata"];
  readonly clientReadOnlyMetadata: ClientTeamJson["client_read_only_metadata"];
}

export function teamFromJson(json: ClientTeamJson): Team {
  return {
    id: json.id,
    displayName: json.display_name,
    profileImageUrl: json.profile_image_url,
    clientMetadata: json.client_metadata ?? null,
    clientReadOnlyMetadata: json.client_read_only_metadata ?? null,
  };
}
