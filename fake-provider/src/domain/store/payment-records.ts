import type {
  CustomerType,
  DataVaultConfig,
  OfferConfig,
  PaymentsCatalogue,
  TransactionEntryJson,
  TransactionType,
} from "@authsim/sdk/contract";

/**
 * Records of payments and the data vault (spec §3, §9; protocol.md §5.13). Values, like every record: replaced, never
 * mutated. The catalogue (items, offers) and the vault's store list are project config (records.ts
 * ProjectConfigRecord.payments / .data_vault); these are the state the project accumulates.
 */

/** The project's catalogue, as held in its config: the contract's schema output. */
export type PaymentsConfigRecord = PaymentsCatalogue;
export type DataVaultConfigRecord = DataVaultConfig;

/**
 * One change of an item's quantity for one customer: the ledger the quantity is summed from (spec §4). Grants from
 * purchases are changes too, so a single table answers "how many now".
 */
export interface ItemQuantityChangeRecord {
  id: string;
  projectId: string;
  customerType: CustomerType;
  customerId: string;
  itemId: string;
  /** Signed: positive grants, negative charges. */
  quantity: number;
  /** The change stops counting once the clock reaches this instant; null never expires. */
  expiresAtMillis: number | null;
  description: string | null;
  createdAtMillis: number;
  /** The transaction that made it (a manual change or a purchase). */
  transactionId: string;
}

/** An entry of the admin transaction list; `entries` is already the wire shape (views only copy it). */
export interface PaymentTransactionRecord {
  id: string;
  projectId: string;
  type: TransactionType;
  customerType: CustomerType;
  customerId: string;
  createdAtMillis: number;
  /** Total order among transactions created in the same millisecond (the list is newest first). */
  seq: number;
  entries: TransactionEntryJson[];
  testMode: boolean;
  /** For purchases: which offer, so non-stackable offers are bought once (PRODUCT_ALREADY_GRANTED). */
  offerId: string | null;
  /** A one-time purchase paid through a provider webhook: its payment intent (a retried event grants nothing twice). */
  paymentIntentId?: string;
  /** A subscription-cancellation that ended the subscription at this instant, not at the end of its paid period. */
  endedAtMillis?: number;
}

/**
 * A purchase URL's session, keyed by its full code `${projectId}_${code}` (upstream's purchase code form). The offer
 * is resolved when the URL is made, so a later catalogue change does not alter what the customer is shown.
 */
export interface CheckoutSessionRecord {
  fullCode: string;
  projectId: string;
  customerType: CustomerType;
  customerId: string;
  offerId: string | null;
  offer: OfferConfig;
  returnUrl: string | null;
  createdAtMillis: number;
  expiresAtMillis: number;
  completedAtMillis: number | null;
}

/** The project's payment-provider (Stripe) account: made by /internal/payments/setup, onboarded on the local page. */
export interface PaymentAccountRecord {
  projectId: string;
  accountId: string;
  createdAtMillis: number;
  /** Set when the onboarding page was completed: charges, details and payouts are then enabled. */
  onboardedAtMillis: number | null;
  /**
   * Where completing the onboarding page sends the person (the account link's return_url, fixed by the latest setup as
   * upstream's: the dashboard's payments page, or the new-project wizard during its payments step).
   */
  returnUrl?: string;
  /** Payment methods the admin turned on or off (GET/PATCH /internal/payments/method-configs); absent = defaults. */
  methodPreferences?: Record<string, "on" | "off">;
}

/**
 * An invoice of a provider subscription, as the provider's invoice events report it (domain/ops/payments/stripe-webhooks.ts), keyed
 * by `${projectId}\u0000${invoiceId}`: an event about an invoice already seen updates it. `GET /payments/invoices`
 * lists them per customer.
 */
export interface SubscriptionInvoiceRecord {
  projectId: string;
  /** The provider's invoice id (`in_…`). */
  invoiceId: string;
  /** The provider's subscription id the invoice bills. */
  providerSubscriptionId: string;
  customerType: CustomerType;
  customerId: string;
  /** The first invoice of a subscription (billing reason `subscription_create`): its payment is the purchase itself. */
  isCreationInvoice: boolean;
  status: "draft" | "open" | "paid" | "uncollectible" | "void" | null;
  /** In cents, as the provider counts. */
  amountTotal: number;
  hostedInvoiceUrl: string | null;
  createdAtMillis: number;
  /** Total order among invoices made in the same millisecond (the list is newest first). */
  seq: number;
}

/**
 * The payment provider's objects the emulator holds as plain state, as its webhook events name them (ops/provider-
 * subscriptions.ts): a provider customer stands for one customer of the project, a provider subscription for one
 * subscription the customer holds. Keyed by `${projectId}\u0000${provider id}`.
 */
export interface ProviderCustomerRecord {
  projectId: string;
  /** The provider's customer id (`cus_…`). */
  providerCustomerId: string;
  customerType: CustomerType;
  customerId: string;
}

export interface ProviderSubscriptionRecord {
  projectId: string;
  /** The provider's subscription id (`sub_…`). */
  providerSubscriptionId: string;
  customerType: CustomerType;
  customerId: string;
  /** The provider's status (active, trialing, past_due, canceled, incomplete_expired, unpaid, …). */
  status: string;
  periodStartMillis: number;
  periodEndMillis: number;
  cancelAtPeriodEnd: boolean;
  /** The subscription the customer holds for it (its purchase transaction's subscription_id); null if never held. */
  heldSubscriptionId: string | null;
  /** When it stopped counting, if it did. */
  endedAtMillis: number | null;
}

/**
 * A card the provider holds for a customer: what the customer's browser entered when it confirmed a setup intent
 * (the emulator's confirmation, emulator/control/payments.ts). Only the parts the provider ever shows back.
 */
export interface CardRecord {
  /** The provider's payment method id (`pm_…`). */
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/**
 * A setup intent (POST /payments/payment-method/…/setup-intent), keyed by providerKey(projectId, intentId): the
 * provider's object with which a customer's browser saves a card. It waits for a card until the browser confirms it
 * (then it has succeeded and holds the card); set-default then makes that card the customer's default.
 */
export interface SetupIntentRecord {
  projectId: string;
  /** The provider's id (`seti_…`), which set-default names. */
  intentId: string;
  /** What the browser confirms the intent with (the id, `_secret_`, a random part), as the provider's. */
  clientSecret: string;
  customerType: "user" | "team";
  customerId: string;
  status: "requires_payment_method" | "succeeded";
  card: CardRecord | null;
  createdAtMillis: number;
  confirmedAtMillis: number | null;
}

/** A customer's default card (set-default), keyed by customerKey: what GET /payments/billing reports for it. */
export interface DefaultPaymentMethodRecord {
  projectId: string;
  customerType: "user" | "team";
  customerId: string;
  card: CardRecord;
  /** The setup intent that saved it. */
  setupIntentId: string;
  setAtMillis: number;
}

export const providerKey = (projectId: string, providerId: string) => `${projectId}\u0000${providerId}`;

export const invoiceKey = (projectId: string, invoiceId: string) => `${projectId}\u0000${invoiceId}`;

/** One stored value of a vault store: both strings are opaque (hashed and encrypted by the SDK). */
export interface DataVaultEntryRecord {
  projectId: string;
  storeId: string;
  hashedKey: string;
  encryptedValue: string;
  updatedAtMillis: number;
}

export const dataVaultEntryKey = (projectId: string, storeId: string, hashedKey: string) =>
  `${projectId}\u0000${storeId}\u0000${hashedKey}`;
/** Customers of different types may share an id (a custom id can equal a user id); the type is part of the key. */
export const customerKey = (projectId: string, customerType: CustomerType, customerId: string) =>
  `${projectId}\u0000${customerType}\u0000${customerId}`;
