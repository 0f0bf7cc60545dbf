import type { InvoiceJson, InvoicesQuery } from "@authsim/sdk/contract";
import type { Auth } from "../../auth/caller.ts";
import type { SubscriptionInvoiceRecord } from "../../store/payment-records.ts";
import type { OpContext } from "../context.ts";
import { assertClientMayManage, type Customer } from "./customers.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * GET /payments/invoices/{type}/{id} (upstream's customer invoice list): the invoices the provider reported for the
 * customer's subscriptions (domain/ops/payments/stripe-webhooks.ts records them), newest first. A project without payments has none.
 * The cursor is the id of the last invoice of the previous page; one that names no invoice is a plain 400.
 */

const newestFirst = (a: SubscriptionInvoiceRecord, b: SubscriptionInvoiceRecord) =>
  b.createdAtMillis - a.createdAtMillis || b.seq - a.seq;

export function listInvoices(
  ctx: OpContext,
  auth: Auth,
  params: { customer_type: "user" | "team"; customer_id: string },
  query: InvoicesQuery,
): { items: InvoiceJson[]; nextCursor: string | null } {
  const customer: Customer = { type: params.customer_type, id: params.customer_id };
  assertClientMayManage(ctx, auth, customer, () => refusal("clientOwnBillingOnly"));
  const projectId = auth.project.id;
  const invoices = [...ctx.tables.subscriptionInvoices.values()]
    .filter((i) => i.projectId === projectId && i.customerType === customer.type && i.customerId === customer.id)
    .sort(newestFirst);
  let rest = invoices;
  if (query.cursor !== undefined) {
    const pivot = invoices.find((i) => i.invoiceId === query.cursor);
    if (!pivot) throw refusal("invalidCursor");
    rest = invoices.filter((i) => newestFirst(pivot, i) < 0);
  }
  const limit = query.limit ?? 10;
  const page = rest.slice(0, limit);
  return {
    items: page.map((i) => ({
      created_at_millis: i.createdAtMillis,
      status: i.status,
      amount_total: i.amountTotal,
      hosted_invoice_url: i.hostedInvoiceUrl,
    })),
    // Upstream names a cursor whenever a page is full, even when nothing follows.
    nextCursor: page.length === limit ? page.at(-1)!.invoiceId : null,
  };
}
