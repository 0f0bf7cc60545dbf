import { type CustomerType, type ItemJson, type OfferConfigInput } from "../contract/areas/payments.ts";
import type { UserTokenSource } from "../transport/transport.ts";
import type { AppContext } from "./app-context.ts";
import { asClient } from "../transport/operation-call.ts";
import { customerBillingMethods, type BillingCustomer, type CustomerBillingMethods } from "./billing.ts";

/**
 * Items and checkout for the client (spec §3 "Item", §5, §7; sdk-surface.md §6, §15): an item of a user, a team or a
 * custom customer, and the purchase URL of an offer.
 */

/** Exactly one owner (spec §5: getItem and updateItemQuantity need exactly one of userId, teamId or customCustomerId). */
export type CustomerOptions =
  | { userId: string; teamId?: never; customCustomerId?: never }
  | { teamId: string; userId?: never; customCustomerId?: never }
  | { customCustomerId: string; userId?: never; teamId?: never };

export interface Customer {
  type: CustomerType;
  id: string;
}

/** Checks the "exactly one" rule at run time too: JavaScript callers (and casts) get past the types. */
export function customerOf(
  options: { userId?: unknown; teamId?: unknown; customCustomerId?: unknown },
  call: string,
): Customer {
  const given = (["userId", "teamId", "customCustomerId"] as const).filter((k) => options[k] !== undefined);
  if (given.length !== 1) {
    throw new TypeError(
      `${call} needs exactly one of userId, teamId or customCustomerId, but got ${given.length === 0 ? "none" : given.join(" and ")}.`,
    );
  }
  const key = given[0]!;
  const id = options[key];
  if (typeof id !== "string" || id.length === 0) throw new TypeError(`${call}: ${key} must be a non-empty string.`);
  return { type: key === "userId" ? "user" : key === "teamId" ? "team" : "custom", id };
}

/** An item as a customer holds it (sdk-surface.md §15). */
export interface Item {
  readonly displayName: string;
  /** May be negative (spec §3). */
  readonly quantity: number;
  /** max(0, quantity). */
  readonly nonNegativeQuantity: number;
}

export function itemFromJson(json: ItemJson): Item {
  return { displayName: json.display_name, quantity: json.quantity, nonNegativeQuantity: Math.max(0, json.quantity) };
}

/** The path parameters of an item's operations (getItem, updateItemQuantity). */
export const itemParams = (customer: Customer, itemId: string) => ({
  customer_type: customer.type,
  customer_id: customer.id,
  item_id: itemId,
});

/** GET /payments/items/{type}/{id}/{item}; a client sends its user's session (it may only read its own items). */
export async function fetchItem(
  ctx: AppContext,
  customer: Customer,
  itemId: string,
  session: UserTokenSource | null,
): Promise<ItemJson> {
  return asClient.json(ctx.transport, "getItem", {
    params: itemParams(customer, itemId),
    session,
    allowAnonymousUser: true,
  });
}

export type GetItemOptions = { itemId: string } & CustomerOptions;

export async function getClientItem(ctx: AppContext, options: GetItemOptions): Promise<Item> {
  return itemFromJson(await fetchItem(ctx, customerOf(options, "getItem"), options.itemId, ctx.session()));
}

/**
 * What to buy: an offer of the catalogue by id (`offerId`, spec §7; `productId` is the published SDK's name for the
 * same), or, from server code only, an inline offer (`offer`, or the published `product`).
 */
export type CheckoutOptions = ({ offerId: string } | { productId: string }) & { returnUrl?: string };
export type ServerCheckoutOptions =
  CheckoutOptions | (({ offer: OfferConfigInput } | { product: OfferConfigInput }) & { returnUrl?: string });

function offerPart(options: ServerCheckoutOptions): { offer_id: string } | { inline_offer: OfferConfigInput } {
  if ("offerId" in options) return { offer_id: options.offerId };
  if ("productId" in options) return { offer_id: options.productId };
  if ("offer" in options) return { inline_offer: options.offer };
  return { inline_offer: options.product };
}

/** POST /payments/purchases/create-purchase-url: the URL of the checkout page for this customer. */
export async function createCheckoutUrl(
  ctx: AppContext,
  customer: Customer,
  options: ServerCheckoutOptions,
  session: UserTokenSource | null,
): Promise<string> {
  const body = {
    customer_type: customer.type,
    customer_id: customer.id,
    ...offerPart(options),
    ...(options.returnUrl === undefined ? {} : { return_url: options.returnUrl }),
  };
  const { url } = await asClient.json(ctx.transport, "createPurchaseUrl", { body, session, allowAnonymousUser: true });
  return url;
}

/** The customer members of a client user or team (sdk-surface.md §15), bound to the signed-in user's session. */
export interface ClientCustomer extends CustomerBillingMethods {
  getItem(itemId: string): Promise<Item>;
  createCheckoutUrl(options: CheckoutOptions): Promise<string>;
}

export function clientCustomerMethods(
  ctx: AppContext,
  customer: BillingCustomer,
  session: UserTokenSource | null,
): ClientCustomer {
  return {
    getItem: async (itemId) => itemFromJson(await fetchItem(ctx, customer, itemId, session)),
    createCheckoutUrl: (options) => createCheckoutUrl(ctx, customer, options, session),
    ...customerBillingMethods(ctx, customer, session),
  };
}
