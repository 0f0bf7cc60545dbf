import type {
  InlineProductJson,
  ItemJson,
  OfferConfig,
  TransactionEntryJson,
  TransactionEntryWireJson,
  TransactionJson,
} from "@authsim/sdk/contract";
import type { PaymentTransactionRecord } from "../store/payment-records.ts";

/** Wire views of payments (protocol.md §5.13; upstream's transaction shape). */

export function itemView(item: { id: string; displayName: string; quantity: number }): ItemJson {
  return { id: item.id, display_name: item.displayName, quantity: item.quantity };
}

/** Upstream's inline-product view of a product snapshot (productToInlineProduct). */
export function inlineProductView(offer: OfferConfig): InlineProductJson {
  return {
    display_name: offer.display_name,
    customer_type: offer.customer_type,
    stackable: offer.stackable,
    server_only: offer.server_only,
    prices: Object.fromEntries(
      Object.entries(offer.prices).map(([id, p]) => [
        id,
        { USD: p.USD, ...(p.interval ? { interval: p.interval } : {}) },
      ]),
    ),
    included_items: structuredClone(offer.included_items),
    client_metadata: offer.client_metadata ?? null,
    client_read_only_metadata: offer.client_read_only_metadata ?? null,
    server_metadata: offer.server_metadata ?? null,
  };
}

function entryView(entry: TransactionEntryJson): TransactionEntryWireJson {
  return entry.type === "product_grant" ? { ...entry, product: inlineProductView(entry.product) } : entry;
}

export function transactionView(
  t: PaymentTransactionRecord,
  adjustedBy: readonly { transaction_id: string; entry_index: number }[] = [],
): TransactionJson {
  return {
    id: t.id,
    created_at_millis: t.createdAtMillis,
    // Purchases and manual changes take effect when made (no scheduled changes are emulated).
    effective_at_millis: t.createdAtMillis,
    type: t.type,
    entries: t.entries.map(entryView),
    adjusted_by: [...adjustedBy],
    test_mode: t.testMode,
  };
}
