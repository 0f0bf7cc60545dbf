/** @authsim/sdk: the client, server and admin apps, their errors and token stores. The wire contract is "@authsim/sdk/contract". */
export { StackClientApp } from "./client/client-app.ts";
export { StackServerApp, type StackServerAppOptions } from "./server/server-app.ts";
export { StackAdminApp, type StackAdminAppOptions } from "./admin/admin-app.ts";
export type { StackClientAppOptions } from "./client/app-options.ts";
export type { CurrentUser } from "./client/current-user.ts";
export type { BaseUser, UserUpdateOptions } from "./client/user-fields.ts";
export type { Auth } from "./client/auth-methods.ts";
export type { Team } from "./client/teams.ts";
export type { Project, ProjectConfig } from "./client/projects.ts";
export type { AdminProject, AdminProjectConfig, AdminOAuthProviderConfig, AdminEmailConfig } from "./admin/projects.ts";
export type {
  ServerUser,
  CurrentServerUser,
  ServerUserCreateOptions,
  ServerUserUpdateOptions,
  CreateSessionOptions,
  ServerSessionTokens,
} from "./server/server-user.ts";
export type { ServerListUsersOptions, CursorList } from "./server/users.ts";
export { UserNotSignedInError, type GetUserOptions } from "./client/get-user.ts";
export type { SignInError, SignUpError, SignInWithCredentialOptions, SignUpWithCredentialOptions } from "./client/auth.ts";
export type { RedirectMethod } from "./client/redirect.ts";
export type { HandlerUrlOptions, ResolvedHandlerUrls } from "./client/urls.ts";

export * from "./errors/index.ts";
export type { TokenStore, TokenPair } from "./session/token-store.ts";
export { memoryTokenStore } from "./session/token-store.ts";
export { cookieTokenStore, type CookieDocument } from "./session/cookie-store.ts";
export { requestTokenStore, tokensFromRequest, type RequestLike } from "./session/request-token-store.ts";
export type { TokenStoreInit } from "./session/resolve-store.ts";
export { AdminSessionUnsupportedError, type AdminAccessTokenProvider } from "./session/admin-session.ts";
export type { FetchLike } from "./transport/transport.ts";

/** The reference SDK's second name for each app (sdk-surface.md §1). */
export { StackClientApp as HexclaveClientApp } from "./client/client-app.ts";
export { StackServerApp as HexclaveServerApp } from "./server/server-app.ts";
export { StackAdminApp as HexclaveAdminApp } from "./admin/admin-app.ts";
