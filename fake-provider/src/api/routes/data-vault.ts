import { getVaultValue, setVaultValue } from "../../domain/ops/payments/data-vault.ts";
import { ok, success, type RouteTable } from "./define.ts";

/** The data vault (protocol.md §5.13), server and admin access only (the contract's operations say so). */
export const dataVaultRoutes: RouteTable = {
  dataVaultGet: {
    handler: ({ auth, ctx, params, body }) =>
      ok({ encrypted_value: getVaultValue(ctx, auth.project, params.store_id, body.hashed_key) }),
  },
  dataVaultSet: {
    handler: ({ auth, ctx, params, body }) => {
      setVaultValue(ctx, auth.project, params.store_id, body.hashed_key, body.encrypted_value);
      return success();
    },
  },
};
