import { describe, expect, it } from "vitest";
import type { PaymentTransactionRecord } from "../../store/payment-records.ts";
import type { OpContext } from "../context.ts";
import { decodeTransactionCursor, encodeTransactionCursor, ledgerIdOf } from "./transaction-cursor.ts";
import { adjustmentsOf } from "./transactions.ts";

const record = (fields: Partial<PaymentTransactionRecord> & Pick<PaymentTransactionRecord, "id" | "type">) =>
  ({
    projectId: "p",
    customerType: "user",
    customerId: "u",
    createdAtMillis: 0,
    seq: 0,
    entries: [],
    testMode: false,
    offerId: null,
    ...fields,
  }) satisfies PaymentTransactionRecord;

const who = {
  adjusted_transaction_id: null,
  adjusted_entry_index: null,
  customer_type: "user",
  customer_id: "u",
} as const;

describe("adjustmentsOf", () => {
  it("names each revocation by its own index within the refund, as upstream's adjusted_by", () => {
    const refund = record({
      id: "buy:refund",
      type: "refund",
      entries: [
        { type: "money_transfer", ...who, charged_amount: { USD: "-1" }, net_amount: { USD: "-1" } },
        { type: "product_revocation", adjusted_transaction_id: "buy", adjusted_entry_index: 0, quantity: 1 },
      ],
    });
    const other = record({ id: "x:refund", type: "refund", projectId: "q", entries: refund.entries });
    const tables = {
      paymentTransactions: new Map([
        [refund.id, refund],
        [other.id, other],
      ]),
    };
    const adjusted = adjustmentsOf({ tables } as unknown as Pick<OpContext, "tables">, "p");
    expect([...adjusted]).toEqual([["buy", [{ transaction_id: "buy:refund", entry_index: 1 }]]]);
  });
});

describe("the transaction cursor", () => {
  it("round-trips and reads padded or standard-alphabet text as Node's base64url decoder does", () => {
    const cursor = { createdAtMillis: 1_700_000_000_000, txnId: "miqc:ü/?" };
    const text = encodeTransactionCursor(cursor);
    expect(text).toBe(Buffer.from(JSON.stringify(cursor)).toString("base64url"));
    expect(decodeTransactionCursor(text)).toEqual(cursor);
    expect(decodeTransactionCursor(Buffer.from(JSON.stringify(cursor)).toString("base64"))).toEqual(cursor);
  });

  it("gives ledger ids as upstream's prefixes name the source", () => {
    const grant = {
      type: "product_grant",
      ...who,
      product_id: "plan",
      product: { display_name: "Plan", customer_type: "user", prices: {}, included_items: {} },
      price_id: "monthly",
      quantity: 1,
    } as const;
    expect(
      ledgerIdOf(record({ id: "s1", type: "purchase", entries: [{ ...grant, subscription_id: "s1" }] as never })),
    ).toBe("sub-start:s1");
    expect(
      ledgerIdOf(record({ id: "o1", type: "purchase", entries: [{ ...grant, one_time_purchase_id: "o1" }] as never })),
    ).toBe("otp:o1");
    expect(ledgerIdOf(record({ id: "m1", type: "manual-item-quantity-change" }))).toBe("miqc:m1");
    expect(ledgerIdOf(record({ id: "r1", type: "subscription-renewal" }))).toBe("sub-renewal:r1");
  });
});
