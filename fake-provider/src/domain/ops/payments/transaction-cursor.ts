import { textToBase64Url } from "../../auth/base64url.ts";
import { refusal } from "../../errors/refusals.ts";
import type { PaymentTransactionRecord } from "../../store/payment-records.ts";

/**
 * The transaction list's cursor, as upstream's: base64url of the JSON `{createdAtMillis, txnId}` of the last row a
 * page held, where txnId is the row's ledger id (a prefix naming what made it, then its source id). The list is
 * ordered by both, descending, so a cursor is a position, not a row that must still exist.
 */
export interface TransactionCursor {
  createdAtMillis: number;
  txnId: string;
}

/**
 * The ledger id upstream gives a row: `sub-start:` + the subscription id for a subscription's purchase, `otp:` + the
 * purchase id for a one-time purchase, `miqc:` + the change's id, `sub-renewal:` + the renewal's id. Ties on creation
 * time are broken by it, so two rows of one millisecond come in the order upstream would give them.
 */
export function ledgerIdOf(t: PaymentTransactionRecord): string {
  switch (t.type) {
    case "purchase": {
      const grant = t.entries[0];
      return grant?.type === "product_grant" && grant.subscription_id !== undefined
        ? `sub-start:${grant.subscription_id}`
        : `otp:${t.id}`;
    }
    case "manual-item-quantity-change":
      return `miqc:${t.id}`;
    case "subscription-renewal":
      return `sub-renewal:${t.id}`;
    default:
      return `${t.type}:${t.id}`;
  }
}

export const encodeTransactionCursor = (cursor: TransactionCursor): string => textToBase64Url(JSON.stringify(cursor));

const BASE64_ALPHABET = /[^A-Za-z0-9+/]/g;

/**
 * Decodes as Node's Buffer.from(text, "base64url") does, which upstream uses: leniently (either alphabet, padding
 * and stray characters ignored), so a cursor with padding still reads. What is not JSON of an object with a
 * non-negative integer createdAtMillis and a non-empty string txnId is a plain 400 "Invalid cursor".
 */
export function decodeTransactionCursor(text: string): TransactionCursor {
  let base64 = text.split("=")[0]!.replace(/-/g, "+").replace(/_/g, "/").replace(BASE64_ALPHABET, "");
  // A lone trailing sextet carries no whole byte; Node drops it where atob would refuse the text.
  if (base64.length % 4 === 1) base64 = base64.slice(0, -1);
  let parsed: unknown;
  try {
    const binary = atob(base64);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw refusal("invalidCursor");
  }
  if (typeof parsed !== "object" || parsed === null) throw refusal("invalidCursor");
  const { createdAtMillis, txnId } = parsed as Record<string, unknown>;
  if (
    typeof createdAtMillis !== "number" ||
    !Number.isInteger(createdAtMillis) ||
    createdAtMillis < 0 ||
    typeof txnId !== "string" ||
    txnId.length === 0
  )
    throw refusal("invalidCursor");
  return { createdAtMillis, txnId };
}
