import { z } from "zod";
import { defineOperations, json } from "../define-operations.ts";

/** Payments: the payment methods a project offers at checkout (admin; GET/PATCH /internal/payments/method-configs). */

/**
 * The payment methods the real service knows, in its order (a refused key lists them in this order), with the names it
 * shows. The emulated provider offers every one of them.
 */
export const paymentMethodNames = {
  card: "Credit/Debit Card",
  cartes_bancaires: "Cartes Bancaires",
  apple_pay: "Apple Pay",
  google_pay: "Google Pay",
  link: "Link",
  amazon_pay: "Amazon Pay",
  cashapp: "Cash App",
  klarna: "Klarna",
  affirm: "Affirm",
  afterpay_clearpay: "Afterpay / Clearpay",
  zip: "Zip",
  ideal: "iDEAL",
  bancontact: "Bancontact",
  eps: "EPS",
  p24: "Przelewy24",
  blik: "BLIK",
  alipay: "Alipay",
  wechat_pay: "WeChat Pay",
  sepa_debit: "SEPA Direct Debit",
  bacs_debit: "Bacs Direct Debit",
  acss_debit: "ACSS Debit",
  us_bank_account: "US Bank Account",
  multibanco: "Multibanco",
  customer_balance: "Customer Balance",
} as const;
export type PaymentMethodId = keyof typeof paymentMethodNames;
const paymentMethodIds = Object.keys(paymentMethodNames) as PaymentMethodId[];
const methodPreference = ["on", "off"] as const;

/**
 * `updates` maps method ids to "on"/"off". The real service checks it as one record field: an unknown id or a bad
 * preference is refused on `updates` itself (not on `updates.<id>`), listing the allowed keys or values.
 */
const methodPreferenceUpdates = z
  .record(z.string(), z.unknown())
  .superRefine((updates, ctx) => {
    const keys = Object.keys(updates);
    if (keys.some((key) => !(paymentMethodIds as string[]).includes(key))) {
      ctx.addIssue({
        code: "custom",
        message: `must be one of the following values: ${paymentMethodIds.join(", ")}`,
        continue: false,
      });
    } else if (Object.values(updates).some((value) => !(methodPreference as readonly unknown[]).includes(value))) {
      ctx.addIssue({
        code: "custom",
        message: `must be one of the following values: ${methodPreference.join(", ")}`,
        continue: false,
      });
    }
  })
  .pipe(z.partialRecord(z.enum(paymentMethodIds as [PaymentMethodId, ...PaymentMethodId[]]), z.enum(methodPreference)));

export const paymentMethodConfigsResponse = z.object({
  config_id: z.string(),
  methods: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      enabled: z.boolean(),
      available: z.boolean(),
      overridable: z.boolean(),
    }),
  ),
});
export type PaymentMethodConfigsJson = z.infer<typeof paymentMethodConfigsResponse>;
export const updatePaymentMethodConfigsBody = z.strictObject({
  config_id: z.string(),
  updates: methodPreferenceUpdates,
});
export type UpdatePaymentMethodConfigsBody = z.infer<typeof updatePaymentMethodConfigsBody>;
export const updatePaymentMethodConfigsResponse = z.object({ success: z.boolean() });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const paymentMethodsOperations = defineOperations("payment-methods", {
  getPaymentMethodConfigs: {
    method: "GET",
    path: "/internal/payments/method-configs",
    access: "admin",
    errors: ["STRIPE_ACCOUNT_INFO_NOT_FOUND"],
    responses: [json(paymentMethodConfigsResponse)],
  },
  updatePaymentMethodConfigs: {
    method: "PATCH",
    path: "/internal/payments/method-configs",
    access: "admin",
    body: updatePaymentMethodConfigsBody,
    errors: ["STRIPE_ACCOUNT_INFO_NOT_FOUND"],
    responses: [json(updatePaymentMethodConfigsResponse)],
  },
});
