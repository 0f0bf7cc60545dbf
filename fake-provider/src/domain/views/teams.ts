import type { ClientTeamJson, ServerTeamJson } from "@authsim/sdk/contract";
import type { TeamRecord } from "../store/records.ts";

export function clientTeamView(team: TeamRecord): ClientTeamJson {
  return {
    id: team.id,
    display_name: team.displayName,
    profile_image_url: team.profileImageUrl,
    client_metadata: team.clientMetadata,
    client_read_only_metadata: team.clientReadOnlyMetadata,
  };
}

export function serverTeamView(team: TeamRecord): ServerTeamJson {
  return { ...clientTeamView(team), created_at_millis: team.createdAtMillis, server_metadata: team.serverMetadata };
}
