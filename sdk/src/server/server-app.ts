import { serverUser } from "../contract/areas/users.ts";
import { StackClientApp } from "../client/client-app.ts";
import { fromEnv, type AppCredentials, type StackClientAppOptions } from "../client/app-options.ts";
import { authMethods } from "../client/auth-methods.ts";
import { signedInAccountMembers } from "../client/account-members.ts";
import { fetchMe, resolveCurrentUser, type GetUserOptions, type NonNullGetUserOptions } from "../client/get-user.ts";
import type { TokenStoreInit } from "../session/resolve-store.ts";
import type { Session } from "../session/session.ts";
import { createAccessTokenVerifier, type AccessTokenVerifier } from "./jwks.ts";
import {
  createServerSession,
  serverUserFromJson,
  type CreateSessionOptions,
  type CurrentServerUser,
  type ServerSessionTokens,
  type ServerUser,
  type ServerUserCreateOptions,
  type ServerUserUpdateOptions,
} from "./server-user.ts";
import {
  createUser,
  getUserById,
  listUsers,
  updateUser,
  type CursorList,
  type ServerListUsersOptions,
} from "./users.ts";
import { checkApiKey } from "./api-keys.ts";
import type { ApiKey } from "../client/api-keys.ts";
import type { ApiKeyType } from "../contract/areas/api-keys.ts";
import * as teams from "./teams.ts";
import type { CustomerOptions, GetItemOptions } from "../client/items.ts";
import { getServerItem, updateItemQuantityFor, type QuantityChange, type ServerItem } from "./items.ts";
import { dataVaultStore, type DataVaultStore } from "./data-vault.ts";
import { getEmailDeliveryInfo, sendEmail, type EmailDeliveryInfo, type SendEmailOptions } from "./emails.ts";
import { internalUserExtra } from "../client/internal-user.ts";
import * as oauthProviders from "./oauth-providers.ts";
import type { AccountIdAlreadyUsed, ServerOAuthProvider } from "../client/oauth-providers.ts";
import type { Result } from "../errors/result.ts";
import { signedInLinking } from "../client/connected-accounts.ts";

export interface StackServerAppOptions extends Omit<StackClientAppOptions, "tokenStore"> {
  /** Server code usually has no store of its own and passes a request per call; defaults to null. */
  tokenStore?: TokenStoreInit;
  /** Falls back to STACK_SECRET_SERVER_KEY. */
  secretServerKey?: string;
}

/** The server app (sdk-surface.md §7): everything of the client app, with server access and user management. */
export class StackServerApp extends StackClientApp {
  private readonly verifyAccessToken: AccessTokenVerifier;

  constructor(options: StackServerAppOptions, credentials?: AppCredentials) {
    const secretServerKey = options.secretServerKey ?? fromEnv("STACK_SECRET_SERVER_KEY");
    if (!credentials && !secretServerKey) {
      throw new Error("No secretServerKey: pass secretServerKey to StackServerApp (or set STACK_SECRET_SERVER_KEY).");
    }
    super(
      { ...options, tokenStore: options.tokenStore ?? null },
      credentials ?? { accessType: "server", secretServerKey },
    );
    this.verifyAccessToken = createAccessTokenVerifier(this.ctx.transport, this.ctx.clock);
  }

  /** The current user's server view; the token is first verified locally against the project's JWKS. */
  private async fetchVerifiedMe(session: Session) {
    const accessToken = await session.getAccessToken();
    if (!accessToken || !(await this.verifyAccessToken(accessToken))) return null;
    return fetchMe(this.ctx, session, serverUser);
  }

  private currentServerUser(session: Session, json: Parameters<typeof serverUserFromJson>[1]): CurrentServerUser {
    // Deleting the signed-in user ends its session too (spec §4).
    return {
      ...serverUserFromJson(this.ctx, json, () => session.markInvalid()),
      ...authMethods(this.ctx, session),
      // Verification and passwords act as the signed-in user, through its session (client/account-members.ts).
      ...signedInAccountMembers(this.ctx, session, json.primary_email),
      // Users of the `internal` project also own projects (sdk-surface.md §9d).
      ...internalUserExtra(this.ctx, session),
      // Linking accounts and registering passkeys act through the session too (client/connected-accounts.ts).
      ...signedInLinking(this.ctx, session),
    };
  }

  override getUser(options: NonNullGetUserOptions): Promise<CurrentServerUser>;
  override getUser(options?: GetUserOptions): Promise<CurrentServerUser | null>;
  override getUser(userId: string): Promise<ServerUser | null>;
  /** The owner of a user API key; null when the key is not valid (sdk-surface.md §7). */
  override getUser(options: { apiKey: string }): Promise<ServerUser | null>;
  override async getUser(
    arg: GetUserOptions | string | { apiKey: string } = {},
  ): Promise<CurrentServerUser | ServerUser | null> {
    if (typeof arg === "string") return getUserById(this.ctx, arg);
    if ("apiKey" in arg) {
      const key = await checkApiKey(this.ctx, "user", arg.apiKey);
      return key ? getUserById(this.ctx, key.userId) : null;
    }
    return resolveCurrentUser(
      this.ctx,
      arg,
      (session) => this.fetchVerifiedMe(session),
      (session, json) => this.currentServerUser(session, json),
    );
  }

  createUser(options: ServerUserCreateOptions): Promise<ServerUser> {
    return createUser(this.ctx, options);
  }

  listUsers(options?: ServerListUsersOptions): Promise<CursorList<ServerUser>> {
    return listUsers(this.ctx, options);
  }

  /** Also available as user.update(); here for code that holds only an id. */
  updateUser(userId: string, options: ServerUserUpdateOptions): Promise<void> {
    return updateUser(this.ctx, userId, options);
  }

  /** Teams (sdk-surface.md §7): create (optionally with a creator), read by id (null when unknown), list. */
  createTeam(options: teams.ServerTeamCreateOptions): Promise<teams.ServerTeam> {
    return teams.createServerTeam(this.ctx, options);
  }

  getTeam(teamId: string): Promise<teams.ServerTeam | null> {
    return teams.getServerTeam(this.ctx, teamId);
  }

  listTeams(options?: teams.ServerListTeamsOptions): Promise<CursorList<teams.ServerTeam>> {
    return teams.listServerTeams(this.ctx, options);
  }

  /** Every member's permissions in a team, as {userId, permissionId} (sdk-surface.md §7). */
  listTeamMemberPermissions(
    teamId: string,
    options?: { recursive?: boolean },
  ): Promise<{ userId: string; permissionId: string }[]> {
    return teams.listTeamMemberPermissions(this.ctx, teamId, options);
  }

  /** The key behind a secret a caller presented, or null when it is not valid (spec §8; server/api-keys.ts). */
  checkApiKey<T extends ApiKeyType>(options: { type: T; apiKey: string }): Promise<ApiKey<T> | null> {
    return checkApiKey(this.ctx, options.type, options.apiKey);
  }

  /** POST /oauth-providers: links a provider account to a user (sdk-surface.md §7); a taken sign-in account id is a result. */
  createOAuthProvider(
    options: oauthProviders.ServerOAuthProviderCreateOptions,
  ): Promise<Result<ServerOAuthProvider, AccountIdAlreadyUsed>> {
    return oauthProviders.createServerOAuthProvider(this.ctx, options);
  }

  /** POST /auth/sessions: tokens for a user, e.g. for impersonation (sdk-surface.md §9c; also user.createSession). */
  createSession(options: CreateSessionOptions & { userId: string }): Promise<ServerSessionTokens> {
    return createServerSession(this.ctx, options.userId, options);
  }

  /** An item of any customer, with the quantity calls (sdk-surface.md §7, §15 ServerItem). */
  override getItem(options: GetItemOptions): Promise<ServerItem> {
    return getServerItem(this.ctx, options);
  }

  /** POST …/update-quantity for exactly one of userId, teamId or customCustomerId (spec §5, §7). */
  updateItemQuantity(options: { itemId: string } & CustomerOptions & QuantityChange): Promise<void> {
    return updateItemQuantityFor(this.ctx, options);
  }

  /** POST /emails/send-email: to users by id or all users, HTML, a template or a draft (sdk-surface.md §20). */
  async sendEmail(options: SendEmailOptions): Promise<void> {
    await sendEmail(this.ctx, options);
  }

  /** GET /emails/delivery-info: sent, bounced and spam counts per window, and the sending capacity. */
  getEmailDeliveryStats(): Promise<EmailDeliveryInfo> {
    return getEmailDeliveryInfo(this.ctx);
  }

  /** A data vault store (sdk-surface.md §16); values are encrypted here, the server sees only ciphertext. */
  async getDataVaultStore(id: string): Promise<DataVaultStore> {
    return dataVaultStore(this.ctx, id);
  }
}
