import { catchKnown, type Result } from "../errors/result.ts";
import type { AppContext } from "../client/app-context.ts";
import {
  serverOAuthProviderFromJson,
  type AccountIdAlreadyUsed,
  type ServerOAuthProvider,
} from "../client/oauth-providers.ts";
import { asServer } from "../transport/operation-call.ts";
import { caughtErrors } from "../client/caught-errors.ts";

/** Server-side OAuth provider links (sdk-surface.md §7 createOAuthProvider; protocol.md §5.10). */

export interface ServerOAuthProviderCreateOptions {
  userId: string;
  accountId: string;
  providerConfigId: string;
  email?: string | null;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
}

/** OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN comes back as the error result (spec §8). */
export function createServerOAuthProvider(
  ctx: AppContext,
  o: ServerOAuthProviderCreateOptions,
): Promise<Result<ServerOAuthProvider, AccountIdAlreadyUsed>> {
  return catchKnown(async () => {
    const body = {
      user_id: o.userId,
      provider_config_id: o.providerConfigId,
      account_id: o.accountId,
      email: o.email,
      allow_sign_in: o.allowSignIn,
      allow_connected_accounts: o.allowConnectedAccounts,
    };
    return serverOAuthProviderFromJson(ctx, await asServer.json(ctx.transport, "createOAuthProvider", { body }));
  }, caughtErrors.createOAuthProvider);
}
