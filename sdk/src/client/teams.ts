import { type ClientTeamJson, type ServerTeamUpdate } from "../contract/areas/teams.ts";
import { asClient, type CallAuth } from "../transport/operation-call.ts";
import type { AppContext } from "./app-context.ts";
import { sentInvitationFromJson, listSentInvitations, type SentTeamInvitation } from "./team-invitations.ts";
import { clientCustomerMethods, type ClientCustomer } from "./items.ts";
import { teamApiKeyCalls, type ApiKeyCreationOptions, type TeamApiKey, type TeamApiKeyFirstView } from "./api-keys.ts";

/** Teams (spec §3 "Team", sdk-surface.md §12): the plain data a user carries, and the team object with its calls. */

/** A team's fields, as carried by a user's `selectedTeam` before any session is attached. */
export interface TeamData {
  readonly id: ClientTeamJson["id"];
  readonly displayName: ClientTeamJson["display_name"];
  readonly profileImageUrl: ClientTeamJson["profile_image_url"];
  readonly clientMetadata: ClientTeamJson["client_metadata"];
  readonly clientReadOnlyMetadata: ClientTeamJson["client_read_only_metadata"];
}

export function teamFromJson(json: ClientTeamJson): TeamData {
  return {
    id: json.id,
    displayName: json.display_name,
    profileImageUrl: json.profile_image_url,
    clientMetadata: json.client_metadata ?? null,
    clientReadOnlyMetadata: json.client_read_only_metadata ?? null,
  };
}

export interface TeamMemberProfile {
  readonly displayName: string | null;
  readonly profileImageUrl: string | null;
}

/** TeamUser: a member as another member sees it (its id and team profile). */
export interface TeamUser {
  readonly id: string;
  readonly teamProfile: TeamMemberProfile;
}

export interface TeamCreateOptions {
  displayName: string;
  profileImageUrl?: string | null;
}

export interface TeamUpdateOptions {
  displayName?: string;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
}

export interface TeamInviteOptions {
  email: string;
  /** Where the emailed link leads; defaults to the app's teamInvitation handler URL (needs a page origin). */
  callbackUrl?: string;
}

/** The calls a client team and a server team share, differing only in how they authenticate. */
export interface TeamCalls {
  inviteUser(options: TeamInviteOptions): Promise<void>;
  listInvitations(): Promise<SentTeamInvitation[]>;
  delete(): Promise<void>;
  /** Team API keys (sdk-surface.md §12, §14): the full value only in the first view. */
  createApiKey(options: ApiKeyCreationOptions): Promise<TeamApiKeyFirstView>;
  listApiKeys(): Promise<TeamApiKey[]>;
}

export interface Team extends TeamData, TeamCalls, ClientCustomer {
  listUsers(): Promise<TeamUser[]>;
  update(options: TeamUpdateOptions): Promise<void>;
}

export function teamUpdateToWire(
  o: TeamUpdateOptions & { clientReadOnlyMetadata?: unknown; serverMetadata?: unknown },
): ServerTeamUpdate {
  return {
    display_name: o.displayName,
    profile_image_url: o.profileImageUrl,
    client_metadata: o.clientMetadata,
    client_read_only_metadata: o.clientReadOnlyMetadata,
    server_metadata: o.serverMetadata,
  };
}

/** The invitation link's target: the given callback, or the teamInvitation handler made absolute (spec §2). */
function invitationCallback(ctx: AppContext, callbackUrl: string | undefined): string {
  const url = callbackUrl ?? ctx.redirector.absolute(ctx.urls.teamInvitation);
  if (!url)
    throw new Error(
      "inviteUser needs callbackUrl here: the teamInvitation handler URL is relative and there is no page origin.",
    );
  return url;
}

/** `auth` carries the session for a client, nothing for server access (the secret key authenticates). */
export function teamCalls(ctx: AppContext, auth: CallAuth, teamId: string): TeamCalls {
  return {
    ...teamApiKeyCalls(ctx, auth, teamId),
    async inviteUser(options) {
      const body = {
        email: options.email,
        team_id: teamId,
        callback_url: invitationCallback(ctx, options.callbackUrl),
      };
      await asClient.send(ctx.transport, "sendTeamInvitation", { ...auth, body });
    },
    listInvitations: () =>
      listSentInvitations(ctx, auth, teamId).then((list) =>
        list.map((json) => sentInvitationFromJson(ctx, auth, json)),
      ),
    async delete() {
      await asClient.send(ctx.transport, "deleteTeam", { ...auth, params: { team_id: teamId } });
    },
  };
}

/** A client's team object, bound to the signed-in user's session. */
export function clientTeamFromJson(ctx: AppContext, auth: CallAuth, json: ClientTeamJson): Team {
  return {
    ...teamFromJson(json),
    ...teamCalls(ctx, auth, json.id),
    // Items and checkout of the team as a customer (sdk-surface.md §15): items.ts.
    ...clientCustomerMethods(ctx, { type: "team", id: json.id }, auth.session ?? null),
    async listUsers() {
      const page = await asClient.json(ctx.transport, "listTeamMemberProfiles", {
        ...auth,
        query: { team_id: json.id },
      });
      return page.items.map((p) => ({
        id: p.user_id,
        teamProfile: { displayName: p.display_name, profileImageUrl: p.profile_image_url },
      }));
    },
    async update(options) {
      const wire = teamUpdateToWire(options);
      await asClient.json(ctx.transport, "updateTeam", { ...auth, params: { team_id: json.id }, body: wire });
    },
  };
}
