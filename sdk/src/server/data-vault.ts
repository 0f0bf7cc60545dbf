import { isKnownErrorOfType } from "../errors/known-error.ts";
import type { AppContext } from "../client/app-context.ts";
import { SECRET_MUST_BE_A_STRING_MESSAGE, vaultEntry } from "../crypto/data-vault.ts";
import { asServer } from "../transport/operation-call.ts";

/**
 * A data vault store (sdk-surface.md §16, spec §3 "Data vault store"): values under keys, protected by a secret that
 * only the caller holds. Keys are hashed and values encrypted here (crypto/data-vault.ts) before they are sent.
 */
export interface DataVaultStore {
  readonly id: string;
  /** The value, or null when none was set under this key with this secret (spec §8: hashed key does not exist). */
  getValue(key: string, options: { secret: string }): Promise<string | null>;
  setValue(key: string, value: string, options: { secret: string }): Promise<void>;
}

/** Spec §5: the secret (and the value) must be strings; callers from plain JavaScript can pass anything. */
function checkSecret(options: { secret: unknown } | undefined): string {
  const secret = options?.secret;
  if (typeof secret !== "string") throw new TypeError(SECRET_MUST_BE_A_STRING_MESSAGE);
  return secret;
}

export function dataVaultStore(ctx: AppContext, id: string): DataVaultStore {
  const params = { store_id: id };
  return {
    id,
    async getValue(key, options) {
      const entry = await vaultEntry(checkSecret(options), key);
      let encrypted: string;
      try {
        encrypted = (
          await asServer.json(ctx.transport, "dataVaultGet", { params, body: { hashed_key: entry.hashedKey } })
        ).encrypted_value;
      } catch (e) {
        if (isKnownErrorOfType(e, "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST")) return null;
        throw e;
      }
      return entry.decrypt(encrypted);
    },
    async setValue(key, value, options) {
      const secret = checkSecret(options);
      if (typeof value !== "string") throw new TypeError("value must be a string");
      const entry = await vaultEntry(secret, key);
      const body = { hashed_key: entry.hashedKey, encrypted_value: await entry.encrypt(value, ctx.transport.random) };
      await asServer.json(ctx.transport, "dataVaultSet", { params, body });
    },
  };
}
