import { isKnownErrorOfType } from "../errors/known-error.ts";
import type { AppContext } from "../client/app-context.ts";
import {
  createCheckoutUrl,
  customerOf,
  fetchItem,
  itemFromJson,
  itemParams,
  type Customer,
  type CustomerOptions,
  type GetItemOptions,
  type Item,
  type ServerCheckoutOptions,
} from "../client/items.ts";
import { asServer } from "../transport/operation-call.ts";
import { customerBillingMethods, type BillingCustomer, type CustomerBillingMethods } from "../client/billing.ts";

/** Items with server access (sdk-surface.md §7, §15 ServerItem; spec §4 "Item quantity"). */

export interface ServerItem extends Item {
  /** Adds `amount`. */
  increaseQuantity(amount: number): Promise<void>;
  /** Subtracts `amount`, going negative if need be (spec §4). */
  decreaseQuantity(amount: number): Promise<void>;
  /** Subtracts `amount` unless the quantity is insufficient: then false, and nothing changes (spec §4, §8). */
  tryDecreaseQuantity(amount: number): Promise<boolean>;
}

export interface QuantityChange {
  delta: number;
  /** An ISO 8601 instant after which the change stops counting. */
  expiresAt?: string;
  description?: string;
  /** Default false (spec §9): a charge beyond the quantity is then ITEM_QUANTITY_INSUFFICIENT_AMOUNT. */
  allowNegative?: boolean;
}

/** POST …/update-quantity?allow_negative=… (spec §7 "Server only"). */
export async function updateItemQuantity(
  ctx: AppContext,
  customer: Customer,
  itemId: string,
  change: QuantityChange,
): Promise<void> {
  const body = {
    delta: change.delta,
    ...(change.expiresAt === undefined ? {} : { expires_at: change.expiresAt }),
    ...(change.description === undefined ? {} : { description: change.description }),
  };
  const query = { allow_negative: change.allowNegative ?? false };
  await asServer.json(ctx.transport, "updateItemQuantity", { params: itemParams(customer, itemId), query, body });
}

function checkAmount(amount: number, method: string): number {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new RangeError(`${method} takes a non-negative whole number, got ${String(amount)}.`);
  return amount;
}

export function serverItemFrom(ctx: AppContext, customer: Customer, itemId: string, item: Item): ServerItem {
  return {
    ...item,
    // A grant never needs the insufficient-amount check; allow_negative keeps upstream from refusing a grant that
    // leaves a negative balance still negative.
    increaseQuantity: async (amount) =>
      updateItemQuantity(ctx, customer, itemId, {
        delta: checkAmount(amount, "increaseQuantity"),
        allowNegative: true,
      }),
    decreaseQuantity: async (amount) =>
      updateItemQuantity(ctx, customer, itemId, {
        delta: -checkAmount(amount, "decreaseQuantity"),
        allowNegative: true,
      }),
    async tryDecreaseQuantity(amount) {
      try {
        await updateItemQuantity(ctx, customer, itemId, {
          delta: -checkAmount(amount, "tryDecreaseQuantity"),
          allowNegative: false,
        });
        return true;
      } catch (e) {
        if (isKnownErrorOfType(e, "ITEM_QUANTITY_INSUFFICIENT_AMOUNT")) return false;
        throw e;
      }
    },
  };
}

export async function fetchServerItem(ctx: AppContext, customer: Customer, itemId: string): Promise<ServerItem> {
  return serverItemFrom(ctx, customer, itemId, itemFromJson(await fetchItem(ctx, customer, itemId, null)));
}

export async function getServerItem(ctx: AppContext, options: GetItemOptions): Promise<ServerItem> {
  return fetchServerItem(ctx, customerOf(options, "getItem"), options.itemId);
}

/** The server app's updateItemQuantity (exactly one owner, like getItem). */
export async function updateItemQuantityFor(
  ctx: AppContext,
  options: { itemId: string } & CustomerOptions & QuantityChange,
): Promise<void> {
  return updateItemQuantity(ctx, customerOf(options, "updateItemQuantity"), options.itemId, options);
}

/** The customer members of a server user or team (sdk-surface.md §15 server Customer). */
export interface ServerCustomer extends CustomerBillingMethods {
  getItem(itemId: string): Promise<ServerItem>;
  createCheckoutUrl(options: ServerCheckoutOptions): Promise<string>;
}

export function serverCustomerMethods(ctx: AppContext, customer: BillingCustomer): ServerCustomer {
  return {
    getItem: (itemId) => fetchServerItem(ctx, customer, itemId),
    createCheckoutUrl: (options) => createCheckoutUrl(ctx, customer, options, null),
    ...customerBillingMethods(ctx, customer, null),
  };
}
