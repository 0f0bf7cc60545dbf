import { clientUser } from "../contract/areas/users.ts";
import { SDK_CLIENT_VERSION } from "../contract/headers.ts";
import type { Result } from "../errors/result.ts";
import type { TokenStoreInit } from "../session/resolve-store.ts";
import type { TokenPair } from "../session/token-store.ts";
import { createAppContext, type AppContext } from "./app-context.ts";
import type { AppCredentials, StackClientAppOptions } from "./app-options.ts";
import { authJson, authMethods } from "./auth-methods.ts";
import {
  signInWithCredential,
  signOut,
  signUpWithCredential,
  type SignInError,
  type SignInWithCredentialOptions,
  type SignUpError,
  type SignUpWithCredentialOptions,
} from "./auth.ts";
import { currentUserFromJson, type CurrentUser } from "./current-user.ts";
import { fetchMe, resolveCurrentUser, type GetUserOptions, type NonNullGetUserOptions } from "./get-user.ts";
import { getClientProject, type Project } from "./projects.ts";
import type { ResolvedHandlerUrls } from "./urls.ts";

/**
 * The client app (sdk-surface.md §6): names and shapes follow the reference SDK so code ports by changing the import.
 * Each area lives in its own module; the app only composes them over one AppContext.
 */
export class StackClientApp {
  /** Shared with the server and admin apps that extend this one. */
  protected readonly ctx: AppContext;
  readonly version: string = SDK_CLIENT_VERSION;

  constructor(options: StackClientAppOptions, credentials: AppCredentials = { accessType: "client" }) {
    this.ctx = createAppContext(options, credentials);
  }

  get projectId(): string {
    return this.ctx.projectId;
  }

  get urls(): ResolvedHandlerUrls {
    return this.ctx.urls;
  }

  async signUpWithCredential(options: SignUpWithCredentialOptions): Promise<Result<void, SignUpError>> {
    return signUpWithCredential(this.ctx, this.ctx.requireSession(undefined, "sign up"), options);
  }

  async signInWithCredential(options: SignInWithCredentialOptions): Promise<Result<void, SignInError>> {
    return signInWithCredential(this.ctx, this.ctx.requireSession(undefined, "sign in"), options);
  }

  getUser(options: NonNullGetUserOptions): Promise<CurrentUser>;
  getUser(options?: GetUserOptions): Promise<CurrentUser | null>;
  async getUser(options: GetUserOptions = {}): Promise<CurrentUser | null> {
    return resolveCurrentUser(
      this.ctx,
      options,
      (session) => fetchMe(this.ctx, session, clientUser),
      (session, json) => currentUserFromJson(this.ctx, session, json),
    );
  }

  async signOut(options: { redirectUrl?: string; tokenStore?: TokenStoreInit } = {}): Promise<void> {
    return signOut(this.ctx, this.ctx.requireSession(options.tokenStore, "sign out"), options);
  }

  getProject(): Promise<Project> {
    return getClientProject(this.ctx);
  }

  async getAccessToken(options: { tokenStore?: TokenStoreInit } = {}): Promise<string | null> {
    return (await this.getAuthJson(options)).accessToken;
  }

  async getRefreshToken(options: { tokenStore?: TokenStoreInit } = {}): Promise<string | null> {
    return this.ctx.session(options.tokenStore)?.getRefreshToken() ?? null;
  }

  async getAuthJson(options: { tokenStore?: TokenStoreInit } = {}): Promise<TokenPair> {
    const session = this.ctx.session(options.tokenStore);
    return session ? authJson(session) : { accessToken: null, refreshToken: null };
  }

  async getAuthorizationHeader(options: { tokenStore?: TokenStoreInit } = {}): Promise<string | null> {
    const session = this.ctx.session(options.tokenStore);
    return session ? authMethods(this.ctx, session).getAuthorizationHeader() : null;
  }
}
