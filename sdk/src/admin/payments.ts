import { type CustomerType, type StripeAccountInfoJson } from "../contract/areas/payments.ts";
import { type TransactionFilterType, type TransactionJson } from "../contract/areas/payments-transactions.ts";
import { isKnownErrorOfType } from "../errors/known-error.ts";
import type { AppContext } from "../client/app-context.ts";
import { customerOf, type CustomerOptions } from "../client/items.ts";
import { updateItemQuantity } from "../server/items.ts";
import { asServer } from "../transport/operation-call.ts";

/** The admin payment calls (sdk-surface.md §8; spec §7 "Admin"). Shapes are the published SDK's (wire JSON). */

export type StripeAccountInfo = StripeAccountInfoJson;
export type Transaction = TransactionJson;

export function setupPayments(ctx: AppContext): Promise<{ url: string }> {
  return asServer.json(ctx.transport, "paymentsSetup", { body: {} });
}

/** The payment-provider account, or null before setup (STRIPE_ACCOUNT_INFO_NOT_FOUND, spec §8). */
export async function getStripeAccountInfo(ctx: AppContext): Promise<StripeAccountInfoJson | null> {
  try {
    return await asServer.json(ctx.transport, "stripeAccountInfo", {});
  } catch (e) {
    if (isKnownErrorOfType(e, "STRIPE_ACCOUNT_INFO_NOT_FOUND")) return null;
    throw e;
  }
}

export function createStripeWidgetAccountSession(ctx: AppContext): Promise<{ client_secret: string }> {
  return asServer.json(ctx.transport, "stripeWidgetSession", { body: {} });
}

export interface ListTransactionsOptions {
  cursor?: string;
  limit?: number;
  /** Upstream's filter values: `refund` is not one (refunds show as adjusted_by of what they revoke). */
  type?: TransactionFilterType;
  customerType?: CustomerType;
}

export async function listTransactions(
  ctx: AppContext,
  options: ListTransactionsOptions = {},
): Promise<{ transactions: TransactionJson[]; nextCursor: string | null }> {
  const query = {
    cursor: options.cursor,
    limit: options.limit,
    type: options.type,
    customer_type: options.customerType,
  };
  const page = await asServer.json(ctx.transport, "listTransactions", { query });
  return { transactions: page.transactions, nextCursor: page.next_cursor };
}

export type ItemQuantityChangeOptions = {
  itemId: string;
  quantity: number;
  expiresAt?: string;
  description?: string;
} & CustomerOptions;

/** A manual change of any size and sign; like the published admin app, it may take the quantity below zero. */
export async function createItemQuantityChange(ctx: AppContext, options: ItemQuantityChangeOptions): Promise<void> {
  return updateItemQuantity(ctx, customerOf(options, "createItemQuantityChange"), options.itemId, {
    delta: options.quantity,
    allowNegative: true,
    ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt }),
    ...(options.description === undefined ? {} : { description: options.description }),
  });
}
