import { dataVaultGetBody, dataVaultSetBody, dataVaultStoreParams } from "@authsim/sdk/contract";
import { getVaultValue, setVaultValue } from "../../domain/ops/data-vault.ts";
import { ok, route, success, type AnyRouteSpec } from "./define.ts";

/** The data vault (protocol.md §5.13), server and admin access only (the contract's operations say so). */
export const dataVaultRoutes: Record<string, AnyRouteSpec> = {
  dataVaultGet: route({
    params: dataVaultStoreParams,
    body: dataVaultGetBody,
    handler: ({ auth, ctx, params, body }) => ok({ encrypted_value: getVaultValue(ctx, auth!.project, params.store_id, body.hashed_key) }),
  }),
  dataVaultSet: route({
    params: dataVaultStoreParams,
    body: dataVaultSetBody,
    handler: ({ auth, ctx, params, body }) => {
      setVaultValue(ctx, auth!.project, params.store_id, body.hashed_key, body.encrypted_value);
      return success();
    },
  }),
};
