import { type ClientProjectJson } from "../contract/areas/projects.ts";
import type { AppContext } from "./app-context.ts";
import { asClient } from "../transport/operation-call.ts";

/** The client view of the project (spec §3, sdk-surface.md §17/§18), from GET /projects/current. */
export interface ProjectConfig {
  readonly signUpEnabled: boolean;
  readonly credentialEnabled: boolean;
  readonly magicLinkEnabled: boolean;
  readonly passkeyEnabled: boolean;
  readonly clientTeamCreationEnabled: boolean;
  readonly clientUserDeletionEnabled: boolean;
  readonly oauthProviders: readonly { id: string }[];
  readonly allowUserApiKeys: boolean;
  readonly allowTeamApiKeys: boolean;
}

export interface Project {
  readonly id: string;
  readonly displayName: string;
  readonly config: ProjectConfig;
}

export function projectConfigFromJson(c: ClientProjectJson["config"]): ProjectConfig {
  return {
    signUpEnabled: c.sign_up_enabled,
    credentialEnabled: c.credential_enabled,
    magicLinkEnabled: c.magic_link_enabled,
    passkeyEnabled: c.passkey_enabled,
    clientTeamCreationEnabled: c.client_team_creation_enabled,
    clientUserDeletionEnabled: c.client_user_deletion_enabled,
    oauthProviders: c.enabled_oauth_providers.map((p) => ({ id: p.id })),
    allowUserApiKeys: c.allow_user_api_keys,
    allowTeamApiKeys: c.allow_team_api_keys,
  };
}

/** The project from its client view as GET /projects/current answers it (or as a page was served with it). */
export function projectFromClientJson(json: ClientProjectJson): Project {
  return { id: json.id, displayName: json.display_name, config: projectConfigFromJson(json.config) };
}

export async function getClientProject(ctx: AppContext): Promise<Project> {
  return projectFromClientJson(await asClient.json(ctx.transport, "getCurrentProject", {}));
}
