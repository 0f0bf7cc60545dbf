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
import { getClientItem, type GetItemOptions, type Item } from "./items.ts";
import * as invitations from "./team-invitations.ts";
import * as magicLink from "./magic-link.ts";
import * as password from "./password.ts";
import * as oauth from "./oauth.ts";
import * as mfa from "./mfa.ts";
import { withMfaRedirect } from "./mfa.ts";
import * as passkeys from "./passkeys.ts";
import * as cliLogin from "./cli-login.ts";
import * as totpSetup from "./totp-setup.ts";
import { verifyEmail } from "./email-verification.ts";
import { createCrossDomainAuthRedirectUrl, type CrossDomainHandoff } from "./cross-domain.ts";
import type { KnownErrorOf } from "../errors/known-error.ts";
import type { ResolvedHandlerUrls } from "./urls.ts";
import type { Timers } from "../cache/timers.ts";
import { createAppCaches, type AppCaches } from "./cached-user.ts";
import { createChangeFeed } from "./change-feed.ts";
import { clientCachesSymbol } from "./client-caches.ts";
import { stackAppInternalsSymbol } from "./app-internals.ts";
import {
  AppRegistry,
  fromClientJson,
  newIdentifier,
  toClientJson,
  type ClientAppJson,
  type ClientAppPlatform,
} from "./app-json.ts";

/** The internal members of an app (sdk-surface.md §6 `[stackAppInternalsSymbol]`): those this SDK has so far. */
export interface ClientAppInternals {
  /** The JSON a browser rebuilds this app from (app-json.ts); gives the app its unique identifier on first use. */
  toClientJson(): ClientAppJson;
  getConstructorOptions(): StackClientAppOptions;
  /**
   * The hosted pages' half of the kit's cross-domain sign-in (cross-domain.ts): as the signed-in user, the address
   * that takes the browser back to the app with a one-time code for this session.
   */
  createCrossDomainAuthRedirectUrl(handoff: CrossDomainHandoff): Promise<string>;
}

/** The process's apps that have a unique identifier (spec §5; app-json.ts). */
const identifiedApps = new AppRegistry<StackClientApp>();

/**
 * The client app (sdk-surface.md §6): names and shapes follow the reference SDK so code ports by changing the import.
 * Each area lives in its own module; the app only composes them over one AppContext.
 */
export class StackClientApp {
  /** Shared with the server and admin apps that extend this one. */
  protected readonly ctx: AppContext;
  readonly version: string = SDK_CLIENT_VERSION;
  /** Successful writes through this app, on which the spec §9 caches refresh (change-feed.ts). */
  private readonly changes = createChangeFeed();
  private caches: AppCaches | null = null;
  /** Set when the app is given one (option, fromClientJson) or first written as JSON (spec §5: used only once). */
  private uniqueIdentifier: string | null = null;

  constructor(options: StackClientAppOptions, credentials: AppCredentials = { accessType: "client" }) {
    this.ctx = createAppContext({ ...options, fetch: this.changes.wrap(options.fetch) }, credentials);
    if (options.uniqueIdentifier !== undefined) this.claim(options.uniqueIdentifier);
  }

  private claim(id: string): string {
    this.uniqueIdentifier = identifiedApps.claim(id, this, () => toClientJson(this.ctx, id));
    return id;
  }

  /** `StackClientApp[stackAppInternalsSymbol].fromClientJson(json, platform?)`: the app a server handed over as JSON. */
  static get [stackAppInternalsSymbol](): {
    fromClientJson(json: unknown, platform?: ClientAppPlatform): StackClientApp;
  } {
    return {
      fromClientJson: (json, platform = {}) =>
        fromClientJson(identifiedApps, json, platform, (options) => new StackClientApp(options)),
    };
  }

  get [stackAppInternalsSymbol](): ClientAppInternals {
    return {
      toClientJson: () => toClientJson(this.ctx, this.uniqueIdentifier ?? this.claim(newIdentifier(this.ctx))),
      getConstructorOptions: () => this.ctx.appOptions,
      createCrossDomainAuthRedirectUrl: (handoff) =>
        createCrossDomainAuthRedirectUrl(
          this.ctx,
          this.ctx.requireSession(undefined, "hand the session to another domain"),
          handoff,
        ),
    };
  }

  /** The caches UI bindings read (@authsim/react; cached-user.ts), built on first use; `timers` is for tests. */
  [clientCachesSymbol](timers?: Timers): AppCaches {
    return (this.caches ??= createAppCaches(this.ctx, this.changes, timers));
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
    // spec §4: MFA required keeps the attempt code and goes to the mfa page (mfa.ts).
    return withMfaRedirect(this.ctx, () =>
      signInWithCredential(this.ctx, this.ctx.requireSession(undefined, "sign in"), options),
    );
  }

  /** Magic link / OTP (magic-link.ts): the answer's nonce completes the emailed 6-character code. */
  sendMagicLinkEmail(
    email: string,
    options?: { callbackUrl?: string },
  ): Promise<Result<{ nonce: string }, magicLink.MagicLinkSendError>> {
    return magicLink.sendMagicLinkEmail(this.ctx, email, options);
  }

  signInWithMagicLink(
    code: string,
    options?: { noRedirect?: boolean },
  ): Promise<Result<void, magicLink.MagicLinkSignInError>> {
    return withMfaRedirect(this.ctx, () =>
      magicLink.signInWithMagicLink(this.ctx, this.ctx.requireSession(undefined, "sign in"), code, options),
    );
  }

  // Strong auth (issue 5): OAuth, MFA, passkeys, CLI login (oauth.ts, mfa.ts, passkeys.ts, cli-login.ts).

  /** Sends the browser to the provider's sign-in (sdk-surface.md §6); the OAuth callback page finishes it. */
  signInWithOAuth(provider: string, options?: { returnTo?: string }): Promise<void> {
    return oauth.signInWithOAuth(this.ctx, this.ctx.requireSession(undefined, "sign in with OAuth"), provider, options);
  }

  /** On the oauth-callback page: true when it signed the user in (spec §5: a missing code, state or cookie is ignored). */
  callOAuthCallback(): Promise<boolean> {
    return oauth.callOAuthCallback(this.ctx, this.ctx.requireSession(undefined, "finish OAuth"));
  }

  /** Finishes a sign-in that answered MULTI_FACTOR_AUTHENTICATION_REQUIRED, with its attempt code (spec §4). */
  signInWithMfa(
    totp: string,
    code: string,
    options?: { noRedirect?: boolean },
  ): Promise<Result<void, mfa.MfaSignInError>> {
    return mfa.signInWithMfa(this.ctx, this.ctx.requireSession(undefined, "sign in"), totp, code, options);
  }

  /** The attempt code an MFA-required sign-in left in session storage for the mfa page, if any. */
  getPendingMfaAttemptCode(): string | null {
    return mfa.pendingMfaAttemptCode(this.ctx);
  }

  signInWithPasskey(options?: { noRedirect?: boolean }): Promise<Result<void, passkeys.PasskeySignInError>> {
    return passkeys.signInWithPasskey(this.ctx, this.ctx.requireSession(undefined, "sign in with a passkey"), options);
  }

  /**
   * A fresh TOTP secret to set up MFA with (totp-setup.ts; not in the published kit, whose React pages make it): show
   * it, check the person's first code with verify(), then save it with user.update({ totpMultiFactorSecret }).
   */
  createTotpSetup(options: totpSetup.TotpSetupOptions): totpSetup.TotpSetup {
    return totpSetup.createTotpSetup(this.ctx, options);
  }

  /** Opens a CLI login and polls until a browser confirms it: the refresh token for the CLI (spec §4, §9). */
  promptCliLogin(options: cliLogin.PromptCliLoginOptions): Promise<Result<string, cliLogin.CliLoginError>> {
    return cliLogin.promptCliLogin(this.ctx, options);
  }

  /** On the cli-auth-confirm page: hands this session to the CLI waiting on `loginCode`. */
  completeCliLogin(loginCode: string): Promise<Result<void, cliLogin.CliLoginError>> {
    return cliLogin.completeCliLogin(this.ctx, this.ctx.requireSession(undefined, "confirm a CLI login"), loginCode);
  }

  /** Password reset (password.ts): email a link, check its code, then set the new password. */
  sendForgotPasswordEmail(
    email: string,
    options?: { callbackUrl?: string },
  ): Promise<Result<void, KnownErrorOf<"USER_NOT_FOUND">>> {
    return password.sendForgotPasswordEmail(this.ctx, email, options);
  }

  verifyPasswordResetCode(code: string): Promise<Result<void, password.VerificationCodeError>> {
    return password.verifyPasswordResetCode(this.ctx, code);
  }

  resetPassword(options: { code: string; password: string }): Promise<Result<void, password.VerificationCodeError>> {
    return password.resetPassword(this.ctx, options);
  }

  /** Verifies the address an email-verification code was sent to (email-verification.ts). */
  verifyEmail(code: string): Promise<Result<void, password.VerificationCodeError>> {
    return verifyEmail(this.ctx, code);
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

  /** An item of the signed-in user or of one of its teams (a client may read no other; spec §5: exactly one owner). */
  getItem(options: GetItemOptions): Promise<Item> {
    return getClientItem(this.ctx, options);
  }

  /** Team invitation codes (sdk-surface.md §6): the signed-in user checks, reads or accepts the code of an email. */
  verifyTeamInvitationCode(code: string): Promise<Result<void, invitations.TeamInvitationCodeError>> {
    return invitations.verifyTeamInvitationCode(this.ctx, this.userAuth("verify a team invitation code"), code);
  }

  acceptTeamInvitation(code: string): Promise<Result<void, invitations.TeamInvitationCodeError>> {
    return invitations.acceptTeamInvitation(this.ctx, this.userAuth("accept a team invitation"), code);
  }

  getTeamInvitationDetails(
    code: string,
  ): Promise<Result<{ teamDisplayName: string }, invitations.TeamInvitationCodeError>> {
    return invitations.getTeamInvitationDetails(this.ctx, this.userAuth("read a team invitation"), code);
  }

  /** Requests made as the signed-in user of the app's own token store. */
  private userAuth(purpose: string) {
    return { session: this.ctx.requireSession(undefined, purpose), allowAnonymousUser: true };
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
