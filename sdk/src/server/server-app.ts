import { serverUser } from "../contract/areas/users.ts";
import { StackClientApp } from "../client/client-app.ts";
import { fromEnv, type AppCredentials, type StackClientAppOptions } from "../client/app-options.ts";
import { authMethods } from "../client/auth-methods.ts";
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
import { createUser, getUserById, listUsers, updateUser, type CursorList, type ServerListUsersOptions } from "./users.ts";

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
    super({ ...options, tokenStore: options.tokenStore ?? null }, credentials ?? { accessType: "server", secretServerKey });
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
    return { ...serverUserFromJson(this.ctx, json, () => session.markInvalid()), ...authMethods(this.ctx, session) };
  }

  override getUser(options: NonNullGetUserOptions): Promise<CurrentServerUser>;
  override getUser(options?: GetUserOptions): Promise<CurrentServerUser | null>;
  override getUser(userId: string): Promise<ServerUser | null>;
  override async getUser(arg: GetUserOptions | string = {}): Promise<CurrentServerUser | ServerUser | null> {
    if (typeof arg === "string") return getUserById(this.ctx, arg);
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

  /** POST /auth/sessions: tokens for a user, e.g. for impersonation (sdk-surface.md §9c; also user.createSession). */
  createSession(options: CreateSessionOptions & { userId: string }): Promise<ServerSessionTokens> {
    return createServerSession(this.ctx, options.userId, options);
  }
}
