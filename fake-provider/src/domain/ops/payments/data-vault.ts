import { knownError } from "../../errors/known-error.ts";
import { dataVaultEntryKey } from "../../store/payment-records.ts";
import type { ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { vaultConfigOf } from "./payments-config.ts";

/**
 * The data vault (spec §3, §9; protocol.md §5.13): stores declared in project config hold opaque strings under opaque
 * keys. The SDK hashes the key and encrypts the value with a secret the server never sees, so there is nothing here to
 * decide but whether the store and the key exist.
 */

function assertStore(ctx: OpContext, project: ProjectRecord, storeId: string): void {
  if (!Object.hasOwn(vaultConfigOf(ctx, project).stores, storeId))
    throw knownError("DATA_VAULT_STORE_DOES_NOT_EXIST", { store_id: storeId });
}

export function getVaultValue(ctx: OpContext, project: ProjectRecord, storeId: string, hashedKey: string): string {
  assertStore(ctx, project, storeId);
  const entry = ctx.tables.dataVaultEntries.get(dataVaultEntryKey(project.id, storeId, hashedKey));
  if (!entry)
    throw knownError("DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", { store_id: storeId, hashed_key: hashedKey });
  return entry.encryptedValue;
}

/** Setting a key again replaces its value. */
export function setVaultValue(
  ctx: OpContext,
  project: ProjectRecord,
  storeId: string,
  hashedKey: string,
  encryptedValue: string,
): void {
  assertStore(ctx, project, storeId);
  ctx.tables.dataVaultEntries.set(dataVaultEntryKey(project.id, storeId, hashedKey), {
    projectId: project.id,
    storeId,
    hashedKey,
    encryptedValue,
    updatedAtMillis: ctx.now,
  });
}
