import type { Session } from "../session/session.ts";
import type { Result } from "../errors/result.ts";
import type { AppContext } from "./app-context.ts";
import { linkConnectedAccount } from "./oauth.ts";
import {
  connectedAccountToken,
  userOAuthMembers,
  type OAuthConnection,
  type OAuthProvider,
  type UserOAuthMembers,
} from "./oauth-providers.ts";
import { registerPasskey, type PasskeyRegistrationError } from "./passkeys.ts";

/**
 * The strong-auth members of the signed-in user (sdk-surface.md §9b): links and connected accounts, linking another
 * provider account (a redirect), the deprecated by-provider connected account, and passkey registration.
 */

/** sdk-surface.md §11 "DeprecatedOAuthConnection": getAccessToken throws when no token can be had. */
export interface DeprecatedOAuthConnection {
  readonly id: string;
  readonly provider: string;
  readonly providerAccountId: string;
  getAccessToken(): Promise<{ accessToken: string }>;
}

export interface DeprecatedConnectedAccountOptions {
  or?: "redirect" | "throw" | "return-null";
  scopes?: readonly string[];
}

export interface SignedInOAuthMembers extends Omit<UserOAuthMembers, "getConnectedAccount"> {
  getConnectedAccount(account: { provider: string; providerAccountId: string }): Promise<OAuthConnection | null>;
  /** Deprecated form: the provider's connected account, if it can give a token with these scopes. */
  getConnectedAccount(
    provider: string,
    options?: DeprecatedConnectedAccountOptions,
  ): Promise<DeprecatedOAuthConnection | null>;
  /** Sends the browser to the provider to link an account (type link, spec §7). */
  linkConnectedAccount(provider: string, options?: { scopes?: readonly string[] }): Promise<void>;
  /** The first account of the provider that can give a token with these scopes, else the link flow (a redirect). */
  getOrLinkConnectedAccount(provider: string, options?: { scopes?: readonly string[] }): Promise<OAuthConnection>;
  registerPasskey(options?: { hostname?: string }): Promise<Result<void, PasskeyRegistrationError>>;
}

/** After a redirect the page is leaving: like the published SDK, the call never settles. */
const never = <T>(): Promise<T> => new Promise<T>(() => {});

export function signedInOAuthMembers(ctx: AppContext, session: Session): SignedInOAuthMembers {
  const me = { session, allowAnonymousUser: true } as const;
  const base = userOAuthMembers<OAuthProvider>(ctx, me, "me");
  const link = (provider: string, options?: { scopes?: readonly string[] }) =>
    linkConnectedAccount(ctx, session, provider, options);

  async function getConnectedAccount(
    arg: string | { provider: string; providerAccountId: string },
    options: DeprecatedConnectedAccountOptions = {},
  ): Promise<OAuthConnection | DeprecatedOAuthConnection | null> {
    if (typeof arg !== "string") return base.getConnectedAccount(arg);
    const account = (await base.listConnectedAccounts()).find((c) => c.provider === arg);
    const ref = { userId: "me", provider: arg };
    const token = account ? await connectedAccountToken(ctx, me, ref, options.scopes) : null;
    if (account && token !== null) {
      return {
        id: arg,
        provider: arg,
        providerAccountId: account.providerAccountId,
        async getAccessToken() {
          const fresh = await connectedAccountToken(ctx, me, ref, options.scopes);
          if (fresh === null)
            throw new Error(`Failed to retrieve an access token for this connected account (provider: ${arg}).`);
          return { accessToken: fresh };
        },
      };
    }
    if (options.or === "redirect") {
      await link(arg, options);
      return never();
    }
    if (options.or === "throw")
      throw new Error(`The user has no connected ${arg} account that can give a token with the requested scopes.`);
    return null;
  }

  return {
    ...base,
    getConnectedAccount: getConnectedAccount as SignedInOAuthMembers["getConnectedAccount"],
    linkConnectedAccount: link,
    async getOrLinkConnectedAccount(provider, options = {}) {
      for (const account of (await base.listConnectedAccounts()).filter((a) => a.provider === provider)) {
        if ((await account.getAccessToken(options)).status === "ok") return account;
      }
      await link(provider, options);
      return never();
    },
    registerPasskey: (options) => registerPasskey(ctx, session, options),
  };
}

/** The session-bound members a server app's current user adds to its server view. */
export function signedInLinking(
  ctx: AppContext,
  session: Session,
): Pick<
  SignedInOAuthMembers,
  "getConnectedAccount" | "linkConnectedAccount" | "getOrLinkConnectedAccount" | "registerPasskey"
> {
  const { getConnectedAccount, linkConnectedAccount, getOrLinkConnectedAccount, registerPasskey } =
    signedInOAuthMembers(ctx, session);
  return { getConnectedAccount, linkConnectedAccount, getOrLinkConnectedAccount, registerPasskey };
}
