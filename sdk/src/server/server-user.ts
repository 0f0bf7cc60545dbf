import type { ServerUserCreate, ServerUserJson, ServerUserUpdate } from "../contract/areas/users.ts";
import type { AppContext } from "../client/app-context.ts";
import type { Auth } from "../client/auth-methods.ts";
import type { SignedInAccountMembers } from "../client/account-members.ts";
import { baseUserFromJson, userUpdateToWire, type BaseUser, type UserUpdateOptions } from "../client/user-fields.ts";
import type { TokenPair } from "../session/token-store.ts";
import { serverUserPermissionMethods, type ServerUserPermissions } from "./permissions.ts";
import { serverTeam, type ServerTeamJson, type TeamListQuery } from "../contract/areas/teams.ts";
import type { ServerCheckoutOptions } from "../client/items.ts";
import {
  teamCalls,
  teamFromJson,
  teamUpdateToWire,
  type Team,
  type TeamUpdateOptions,
  type TeamUser,
} from "../client/teams.ts";
import { userTeamMethods, type UserTeams } from "../client/user-teams.ts";
import type { CursorList } from "./cursor-list.ts";
import { serverUserAccountMembers, type ServerUserAccountMembers } from "./account-members.ts";
import { serverCustomerMethods, type ServerCustomer, type ServerItem } from "./items.ts";
import { userOAuthMembers, type ServerOAuthProvider, type UserOAuthMembers } from "../client/oauth-providers.ts";
import type { SignedInOAuthMembers } from "../client/connected-accounts.ts";
import { asServer } from "../transport/operation-call.ts";

/** The server view of a user (spec §3 "Server user", sdk-surface.md §9c) and its server-only writes. */

export interface ServerUserUpdateOptions extends UserUpdateOptions {
  primaryEmailVerified?: ServerUserUpdate["primary_email_verified"];
  primaryEmailAuthEnabled?: ServerUserUpdate["primary_email_auth_enabled"];
  clientReadOnlyMetadata?: ServerUserUpdate["client_read_only_metadata"];
  serverMetadata?: ServerUserUpdate["server_metadata"];
  password?: ServerUserUpdate["password"];
  restrictedByAdmin?: ServerUserUpdate["restricted_by_admin"];
  restrictedByAdminReason?: ServerUserUpdate["restricted_by_admin_reason"];
  restrictedByAdminPrivateDetails?: ServerUserUpdate["restricted_by_admin_private_details"];
  countryCode?: ServerUserUpdate["country_code"];
  riskScores?: { signUp: { bot: number; freeTrialAbuse: number } };
}

export interface ServerUserCreateOptions {
  primaryEmail?: ServerUserCreate["primary_email"];
  primaryEmailAuthEnabled?: ServerUserCreate["primary_email_auth_enabled"];
  password?: ServerUserCreate["password"];
  otpAuthEnabled?: ServerUserCreate["otp_auth_enabled"];
  displayName?: ServerUserCreate["display_name"];
  primaryEmailVerified?: ServerUserCreate["primary_email_verified"];
  clientMetadata?: ServerUserCreate["client_metadata"];
  clientReadOnlyMetadata?: ServerUserCreate["client_read_only_metadata"];
  serverMetadata?: ServerUserCreate["server_metadata"];
  countryCode?: ServerUserCreate["country_code"];
  riskScores?: { signUp: { bot: number; freeTrialAbuse: number } };
}

export interface CreateSessionOptions {
  /** Default one year (spec §9). */
  expiresInMillis?: number;
  /** Default false (spec §9). */
  isImpersonation?: boolean;
}

export interface ServerSessionTokens {
  getTokens(): Promise<TokenPair>;
}

export interface ServerUser
  extends
    BaseUser,
    ServerUserTeams,
    ServerUserPermissions,
    ServerUserAccountMembers,
    ServerCustomer,
    UserOAuthMembers<ServerOAuthProvider> {
  /** The selected team as a server team object (sdk-surface.md §9b). */
  readonly selectedTeam: ServerTeam | null;
  readonly lastActiveAt: Date;
  readonly primaryEmailAuthEnabled: ServerUserJson["primary_email_auth_enabled"];
  readonly serverMetadata: ServerUserJson["server_metadata"];
  readonly restrictedByAdmin: ServerUserJson["restricted_by_admin"];
  readonly restrictedByAdminReason: ServerUserJson["restricted_by_admin_reason"];
  readonly restrictedByAdminPrivateDetails: ServerUserJson["restricted_by_admin_private_details"];
  readonly countryCode: ServerUserJson["country_code"];
  readonly riskScores: { signUp: { bot: number; freeTrialAbuse: number } };
  update(options: ServerUserUpdateOptions): Promise<void>;
  setDisplayName(displayName: string | null): Promise<void>;
  setClientMetadata(metadata: unknown): Promise<void>;
  setClientReadOnlyMetadata(metadata: unknown): Promise<void>;
  setServerMetadata(metadata: unknown): Promise<void>;
  setPrimaryEmail(email: string | null, options?: { verified?: boolean }): Promise<void>;
  delete(): Promise<void>;
  createSession(options?: CreateSessionOptions): Promise<ServerSessionTokens>;
}

/** A server app's signed-in user: the server view plus the session members (sdk-surface.md §9, CurrentServerUser). */
export type CurrentServerUser = ServerUser &
  Auth &
  SignedInAccountMembers &
  // Linking accounts and registering passkeys act as the signed-in user (client/connected-accounts.ts).
  Pick<
    SignedInOAuthMembers,
    "getConnectedAccount" | "linkConnectedAccount" | "getOrLinkConnectedAccount" | "registerPasskey"
  >;

function riskScoresToWire(r: ServerUserUpdateOptions["riskScores"]): ServerUserUpdate["risk_scores"] {
  return r === undefined ? undefined : { sign_up: { bot: r.signUp.bot, free_trial_abuse: r.signUp.freeTrialAbuse } };
}

export function serverUserUpdateToWire(o: ServerUserUpdateOptions): ServerUserUpdate {
  return {
    ...userUpdateToWire(o),
    primary_email_verified: o.primaryEmailVerified,
    primary_email_auth_enabled: o.primaryEmailAuthEnabled,
    client_read_only_metadata: o.clientReadOnlyMetadata,
    server_metadata: o.serverMetadata,
    password: o.password,
    restricted_by_admin: o.restrictedByAdmin,
    restricted_by_admin_reason: o.restrictedByAdminReason,
    restricted_by_admin_private_details: o.restrictedByAdminPrivateDetails,
    country_code: o.countryCode,
    risk_scores: riskScoresToWire(o.riskScores),
  };
}

export function serverUserCreateToWire(o: ServerUserCreateOptions): ServerUserCreate {
  return {
    primary_email: o.primaryEmail,
    primary_email_auth_enabled: o.primaryEmailAuthEnabled,
    password: o.password,
    otp_auth_enabled: o.otpAuthEnabled,
    display_name: o.displayName,
    primary_email_verified: o.primaryEmailVerified,
    client_metadata: o.clientMetadata,
    client_read_only_metadata: o.clientReadOnlyMetadata,
    server_metadata: o.serverMetadata,
    country_code: o.countryCode,
    risk_scores: riskScoresToWire(o.riskScores),
  };
}

/** POST /auth/sessions (protocol.md §4.5): a session for any user, made by server code. */
export async function createServerSession(
  ctx: AppContext,
  userId: string,
  options: CreateSessionOptions = {},
): Promise<ServerSessionTokens> {
  const body = {
    user_id: userId,
    expires_in_millis: options.expiresInMillis,
    is_impersonation: options.isImpersonation,
  };
  const tokens = await asServer.json(ctx.transport, "createSession", { body });
  return { getTokens: async () => ({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token }) };
}

/** `onDeleted` lets the current user's object end its session after deleting the user (spec §4). */
export function serverUserFromJson(
  ctx: AppContext,
  json: ServerUserJson,
  onDeleted: () => void = () => {},
): ServerUser {
  const update = async (options: ServerUserUpdateOptions): Promise<void> => {
    await asServer.send(ctx.transport, "updateUser", {
      params: { user_id: json.id },
      body: serverUserUpdateToWire(options),
    });
  };
  return {
    ...baseUserFromJson(json),
    lastActiveAt: new Date(json.last_active_at_millis),
    primaryEmailAuthEnabled: json.primary_email_auth_enabled,
    serverMetadata: json.server_metadata,
    restrictedByAdmin: json.restricted_by_admin,
    restrictedByAdminReason: json.restricted_by_admin_reason,
    restrictedByAdminPrivateDetails: json.restricted_by_admin_private_details,
    countryCode: json.country_code,
    riskScores: {
      signUp: { bot: json.risk_scores.sign_up.bot, freeTrialAbuse: json.risk_scores.sign_up.free_trial_abuse },
    },
    // Teams (below) and permissions (permissions.ts).
    ...serverUserTeams(ctx, json.id, json.selected_team, (selectedTeamId) => update({ selectedTeamId })),
    ...serverUserPermissionMethods(ctx, json.id),
    // Contact channels, sessions, notification categories, API keys, password: account-members.ts.
    ...serverUserAccountMembers(ctx, json.id),
    // Items and checkout (sdk-surface.md §15 server Customer): items.ts.
    ...serverCustomerMethods(ctx, { type: "user", id: json.id }),
    // OAuth provider links and connected accounts (sdk-surface.md §11): client/oauth-providers.ts.
    ...userOAuthMembers<ServerOAuthProvider>(ctx, {}, json.id),
    update,
    setDisplayName: (displayName) => update({ displayName }),
    setClientMetadata: (clientMetadata) => update({ clientMetadata }),
    setClientReadOnlyMetadata: (clientReadOnlyMetadata) => update({ clientReadOnlyMetadata }),
    setServerMetadata: (serverMetadata) => update({ serverMetadata }),
    setPrimaryEmail: (primaryEmail, options = {}) => update({ primaryEmail, primaryEmailVerified: options.verified }),
    async delete() {
      await asServer.send(ctx.transport, "deleteUser", { params: { user_id: json.id } });
      onDeleted();
    },
    createSession: (options) => createServerSession(ctx, json.id, options),
  };
}

// The server team view (sdk-surface.md §7, §12): here rather than in teams.ts because a team lists server users and a
// server user holds its server teams.

export interface ServerTeamUpdateOptions extends TeamUpdateOptions {
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
}

/** A member seen by server code: the whole server user plus its team profile. */
export type ServerTeamUser = ServerUser & TeamUser;

export interface ServerTeam extends Team {
  readonly createdAt: Date;
  readonly serverMetadata: unknown;
  listUsers(): Promise<ServerTeamUser[]>;
  update(options: ServerTeamUpdateOptions): Promise<void>;
  addUser(userId: string): Promise<void>;
  removeUser(userId: string): Promise<void>;
  /** The team as a customer with server access (sdk-surface.md §15 server Customer): items.ts. */
  getItem(itemId: string): Promise<ServerItem>;
  createCheckoutUrl(options: ServerCheckoutOptions): Promise<string>;
}

export interface ServerListTeamsOptions {
  orderBy?: "createdAt";
  desc?: boolean;
  cursor?: string;
  limit?: number;
  query?: string;
}

export function serverTeamFromJson(ctx: AppContext, json: ServerTeamJson): ServerTeam {
  return {
    ...teamFromJson(json),
    ...teamCalls(ctx, {}, json.id),
    ...serverCustomerMethods(ctx, { type: "team", id: json.id }),
    createdAt: new Date(json.created_at_millis),
    serverMetadata: json.server_metadata ?? null,
    async listUsers() {
      const page = await asServer.json(ctx.transport, "listTeamMemberProfiles", { query: { team_id: json.id } });
      return page.items.map((p) => ({
        ...serverUserFromJson(ctx, p.user),
        teamProfile: { displayName: p.display_name, profileImageUrl: p.profile_image_url },
      }));
    },
    async update(options) {
      await asServer.json(ctx.transport, "updateTeam", {
        params: { team_id: json.id },
        body: teamUpdateToWire(options),
      });
    },
    async addUser(userId) {
      await asServer.send(ctx.transport, "addTeamMember", { params: { team_id: json.id, user_id: userId }, body: {} });
    },
    async removeUser(userId) {
      await asServer.send(ctx.transport, "removeTeamMember", {
        params: { team_id: json.id, user_id: userId },
        body: {},
      });
    },
  };
}

/** GET /teams (optionally a user's): a "+cursor list" like listUsers. */
export async function listServerTeams(
  ctx: AppContext,
  options: ServerListTeamsOptions & { userId?: string } = {},
): Promise<CursorList<ServerTeam>> {
  const query: { [K in keyof TeamListQuery]?: string | number } = {
    user_id: options.userId,
    order_by: options.orderBy === "createdAt" ? "created_at" : undefined,
    desc: options.desc === undefined ? undefined : String(options.desc),
    cursor: options.cursor,
    limit: options.limit,
    query: options.query,
  };
  const page = await asServer.json(ctx.transport, "listTeams", { query });
  return Object.assign(
    page.items.map((json) => serverTeamFromJson(ctx, json)),
    { nextCursor: page.pagination?.next_cursor ?? null },
  );
}

export interface ServerUserTeams extends UserTeams<ServerTeam> {
  listTeams(options?: ServerListTeamsOptions): Promise<CursorList<ServerTeam>>;
}

/** A server user's team members: as the client's, with the user's id and the server key (sdk-surface.md §9b, §9c). */
export function serverUserTeams(
  ctx: AppContext,
  userId: string,
  selected: ServerTeamJson | null,
  setSelectedTeamId: (teamId: string | null) => Promise<void>,
): ServerUserTeams {
  const base = userTeamMethods(
    ctx,
    { userId, auth: {}, setSelectedTeamId },
    { schema: serverTeam, build: (json) => serverTeamFromJson(ctx, json), createBody: { creator_user_id: userId } },
    selected,
  );
  return { ...base, listTeams: (options) => listServerTeams(ctx, { ...options, userId }) };
}
