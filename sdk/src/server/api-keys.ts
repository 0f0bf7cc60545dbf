import { anyApiKey, type ApiKeyType } from "../contract/areas/api-keys.ts";
import type { AppContext } from "../client/app-context.ts";
import { apiKeyFromJson, type ApiKey } from "../client/api-keys.ts";
import { isKnownErrorOfType } from "../errors/known-error.ts";
import { asServer } from "../transport/operation-call.ts";

/**
 * Checking a key a caller presented (spec §8: "The check call returns null for an invalid key"; protocol.md §5.8).
 * Any API_KEY_NOT_VALID error (not found, expired, revoked, wrong type) becomes null; other errors are thrown.
 */
export async function checkApiKey<T extends ApiKeyType>(
  ctx: AppContext,
  type: T,
  apiKey: string,
): Promise<ApiKey<T> | null> {
  try {
    const json = await asServer.jsonAs(
      ctx.transport,
      type === "user" ? "checkUserApiKey" : "checkTeamApiKey",
      { body: { api_key: apiKey } },
      anyApiKey,
    );
    // The check endpoint of a type only answers keys of that type (WRONG_API_KEY_TYPE otherwise).
    if (json.type !== type) throw new Error(`The ${type}-api-keys check answered a ${json.type} key.`);
    return apiKeyFromJson(ctx, {}, json) as unknown as ApiKey<T>;
  } catch (e) {
    if (isKnownErrorOfType(e, "API_KEY_NOT_VALID")) return null;
    throw e;
  }
}
