import { z } from "zod";
import { catalogueId } from "./payments.ts";
import { defineOperations, json, success } from "../define-operations.ts";

/**
 * The encrypted data vault (spec §3, §9; protocol.md §5.13). The server stores opaque strings only: the SDK hashes the
 * key and encrypts the value with the caller's secret before sending (sdk/src/crypto/data-vault.ts).
 */

/** Any id: one the project does not declare is DATA_VAULT_STORE_DOES_NOT_EXIST (upstream reads it as a plain string). */
export const dataVaultStoreParams = z.strictObject({ store_id: z.string().min(1).max(256) });

export const dataVaultGetBody = z.strictObject({ hashed_key: z.string().min(1).max(1024) });
export const dataVaultGetResponse = z.object({ encrypted_value: z.string() });

/** Spec §5: the encrypted value must be a string. */
export const dataVaultSetBody = z.strictObject({
  hashed_key: z.string().min(1).max(1024),
  encrypted_value: z.string(),
});
export type DataVaultSetBody = z.infer<typeof dataVaultSetBody>;

/** Stores a project declares (upstream's config `dataVault.stores.<id>`). */
export const dataVaultConfig = z.strictObject({
  stores: z.record(catalogueId, z.strictObject({ display_name: z.string().max(256).default("") })).default({}),
});
export type DataVaultConfig = z.output<typeof dataVaultConfig>;
export type DataVaultConfigInput = z.input<typeof dataVaultConfig>;

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const dataVaultOperations = defineOperations("data-vault", {
  dataVaultGet: {
    method: "POST",
    path: "/data-vault/stores/:store_id/get",
    access: "server",
    params: dataVaultStoreParams,
    body: dataVaultGetBody,
    errors: ["DATA_VAULT_STORE_DOES_NOT_EXIST", "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST"],
    responses: [json(dataVaultGetResponse)],
  },
  dataVaultSet: {
    method: "POST",
    path: "/data-vault/stores/:store_id/set",
    access: "server",
    params: dataVaultStoreParams,
    body: dataVaultSetBody,
    errors: ["DATA_VAULT_STORE_DOES_NOT_EXIST"],
    responses: [success],
  },
});
