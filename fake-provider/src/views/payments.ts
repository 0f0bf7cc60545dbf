import type { ItemJson, TransactionJson } from "@authsim/sdk/contract";
import type { PaymentTransactionRecord } from "../store/payment-records.ts";

/** Wire views of payments (protocol.md §5.13; upstream's transaction shape). */

export function itemView(item: { id: string; displayName: string; quantity: number }): ItemJson {
  return { id: item.id, display_name: item.displayName, quantity: item.quantity };
}

export function transactionView(t: PaymentTransactionRecord): TransactionJson {
  return {
    id: t.id,
    created_at_millis: t.createdAtMillis,
    // Purchases and manual changes take effect when made (no scheduled changes are emulated).
    effective_at_millis: t.createdAtMillis,
    type: t.type,
    customer_type: t.customerType,
    customer_id: t.customerId,
    entries: t.entries,
    adjusted_by: [],
    test_mode: t.testMode,
  };
}
