import type { CustomerType, ItemConfig, ItemParams, UpdateItemQuantityBody } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import type { ItemQuantityChangeRecord } from "../../store/payment-records.ts";
import type { ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { refusal } from "../../errors/refusals.ts";
import { assertClientMayManage, assertCustomerExists, type Customer } from "./customers.ts";
import { findItem } from "./payments-config.ts";
import { recordTransaction } from "./transactions.ts";

/**
 * Items (spec §3, §4 "Item quantity"; protocol.md §5.13). A quantity is the sum of the customer's changes of the item
 * that are still live by the injected clock: a change with `expires_at` stops counting once the clock reaches it.
 */

/** A change counts while `now` is before its expiry (at the expiry instant it has expired, like a token's exp). */
export const isLive = (change: Pick<ItemQuantityChangeRecord, "expiresAtMillis">, now: number): boolean =>
  change.expiresAtMillis === null || now < change.expiresAtMillis;

export function quantityOf(ctx: OpContext, projectId: string, customer: Customer, itemId: string): number {
  let total = 0;
  for (const change of ctx.tables.itemQuantityChanges.values()) {
    if (
      change.projectId === projectId &&
      change.customerType === customer.type &&
      change.customerId === customer.id &&
      change.itemId === itemId &&
      isLive(change, ctx.now)
    ) {
      total += change.quantity;
    }
  }
  return total;
}

/**
 * The checks of upstream's item routes, in its order: the client's right to the customer (its own user, or a team it
 * holds team_admin in; anything else a plain 403), the item
 * (ITEM_NOT_FOUND), its customer type (ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH), then the customer (USER_NOT_FOUND, TEAM_NOT_FOUND).
 */
function resolveItem(
  ctx: OpContext,
  auth: Auth,
  params: ItemParams,
): { project: ProjectRecord; customer: Customer; item: ItemConfig } {
  const customer: Customer = { type: params.customer_type, id: params.customer_id };
  assertClientMayManage(ctx, auth, customer, () => refusal("clientOwnItemsOnly"));
  const project = auth.project;
  const item = findItem(ctx, project, params.item_id);
  if (!item) throw knownError("ITEM_NOT_FOUND", { item_id: params.item_id });
  assertItemServes(params.item_id, item, customer);
  assertCustomerExists(ctx, project.id, customer);
  return { project, customer, item };
}

export function assertItemServes(itemId: string, item: ItemConfig, customer: { type: CustomerType; id: string }): void {
  if (item.customer_type !== customer.type) {
    throw knownError("ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", {
      item_id: itemId,
      customer_id: customer.id,
      item_customer_type: item.customer_type,
      actual_customer_type: customer.type,
    });
  }
}

export function getItem(
  ctx: OpContext,
  auth: Auth,
  params: ItemParams,
): { id: string; displayName: string; quantity: number } {
  const { project, customer, item } = resolveItem(ctx, auth, params);
  return {
    id: params.item_id,
    displayName: item.display_name,
    quantity: quantityOf(ctx, project.id, customer, params.item_id),
  };
}

/** Writes one change (of a manual update or of a purchase's grant); the caller has checked the item and customer. */
export function addQuantityChange(
  ctx: OpContext,
  projectId: string,
  customer: Customer,
  itemId: string,
  change: { quantity: number; expiresAtMillis: number | null; description: string | null; transactionId: string },
): ItemQuantityChangeRecord {
  const record: ItemQuantityChangeRecord = {
    id: uuid(ctx.random),
    projectId,
    customerType: customer.type,
    customerId: customer.id,
    itemId,
    createdAtMillis: ctx.now,
    ...change,
  };
  ctx.tables.itemQuantityChanges.set(record.id, record);
  return record;
}

/**
 * POST …/update-quantity (server or admin). Without allow_negative a change that would leave the live quantity below
 * zero is refused with ITEM_QUANTITY_INSUFFICIENT_AMOUNT, whose `quantity` is the delta asked for, as upstream: a grant
 * that leaves a negative balance still negative is refused too, whatever its sign.
 */
export function updateItemQuantity(
  ctx: OpContext,
  auth: Auth,
  params: ItemParams,
  allowNegative: boolean,
  body: UpdateItemQuantityBody,
): void {
  const { project, customer } = resolveItem(ctx, auth, params);
  if (!allowNegative && quantityOf(ctx, project.id, customer, params.item_id) + body.delta < 0) {
    throw knownError("ITEM_QUANTITY_INSUFFICIENT_AMOUNT", {
      item_id: params.item_id,
      customer_id: customer.id,
      quantity: body.delta,
    });
  }
  const transaction = recordTransaction(ctx, project.id, {
    type: "manual-item-quantity-change",
    customer,
    entries: [
      {
        type: "item_quantity_change",
        adjusted_transaction_id: null,
        adjusted_entry_index: null,
        customer_type: customer.type,
        customer_id: customer.id,
        item_id: params.item_id,
        quantity: body.delta,
      },
    ],
  });
  addQuantityChange(ctx, project.id, customer, params.item_id, {
    quantity: body.delta,
    // An empty expires_at is none, as upstream's truthiness test reads it.
    expiresAtMillis: body.expires_at ? Date.parse(body.expires_at) : null,
    description: body.description ?? null,
    transactionId: transaction.id,
  });
}
