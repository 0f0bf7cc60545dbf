import { utf8ToBase64 } from "../runtime/base64.ts";
import type { TokenPair } from "../session/token-store.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { signOut } from "./auth.ts";

/** The Auth members of sdk-surface.md §6 / §9a, shared by the apps and by current-user objects. */

export interface Auth {
  readonly currentSession: { getTokens(): Promise<TokenPair> };
  signOut(options?: { redirectUrl?: string }): Promise<void>;
  getAccessToken(): Promise<string | null>;
  getRefreshToken(): Promise<string | null>;
  getAuthJson(): Promise<TokenPair>;
  /** "Bearer stackauth_<base64 of the auth JSON>", readable by a server app from the request (sdk-surface.md §6). */
  getAuthorizationHeader(): Promise<string | null>;
}

export async function authJson(session: Session): Promise<TokenPair> {
  const accessToken = await session.getAccessToken();
  return { accessToken, refreshToken: session.getRefreshToken() };
}

export function authMethods(ctx: AppContext, session: Session): Auth {
  return {
    currentSession: { getTokens: () => authJson(session) },
    signOut: (options) => signOut(ctx, session, options),
    getAccessToken: () => session.getAccessToken(),
    getRefreshToken: async () => session.getRefreshToken(),
    getAuthJson: () => authJson(session),
    async getAuthorizationHeader() {
      const json = await authJson(session);
      return json.accessToken || json.refreshToken ? `Bearer stackauth_${utf8ToBase64(JSON.stringify(json))}` : null;
    },
  };
}
