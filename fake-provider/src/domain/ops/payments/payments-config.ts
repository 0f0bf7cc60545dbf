import { paymentsConfigInput, type PaymentsConfigInput } from "@authsim/sdk/emulator";
import type { z } from "zod";
import {
  type DataVaultConfigInput,
  type ItemConfig,
  type OfferConfig,
  type PaymentsCatalogueInput,
} from "@authsim/sdk/contract";
import type { ProjectRecord } from "../../store/records.ts";
import { deepFreeze } from "../../store/table.ts";
import type { DataVaultConfigRecord, PaymentsConfigRecord } from "../../store/payment-records.ts";
import type { Tables } from "../../store/store.ts";
import { clearKeysEverywhere, isUnder, renderLayers } from "../config/config-layers.ts";
import type { OpContext } from "../context.ts";

/**
 * The payments catalogue and the vault's stores of a project, read from its config (protocol.md §6.5): the sections
 * `payments` (items, products, productLines, testMode, blockNewPurchases) and `dataVault` (stores) as the real service's
 * config has them, rendered from the project's base catalogue and the override layers (config-layers.ts) on top.
 *
 * The base is what a seed or the emulator control endpoint /__emulator/projects/:id/payments-config (emulator/control/payments.ts)
 * set, held as the project record's `payments` / `data_vault`; a PUT there replaces the section, clearing what
 * overrides said about it, so the control view, GET /internal/config and the payment routes read one rendered config.
 * Offers of the base may be `hidden` (an emulator extension the real config has no key for).
 */

/** What a seed or the control endpoint may set (the control contract's body of PUT …/payments-config). */
export { paymentsConfigInput, type PaymentsConfigInput };

type Reader = Pick<OpContext, "tables"> | { tables: Tables };
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const entriesOf = (v: unknown): [string, Json][] =>
  isObject(v) ? Object.entries(v).filter((e): e is [string, Json] => isObject(e[1])) : [];

/** The base catalogue (snake case, the contract's shape) in the config's camel-case shape. */
function baseSections(project: ProjectRecord): Json {
  const payments = project.config.payments ?? { items: {}, offers: {} };
  const vault = project.config.data_vault ?? { stores: {} };
  return {
    payments: {
      items: Object.fromEntries(
        Object.entries(payments.items).map(([id, i]) => [
          id,
          { displayName: i.display_name, customerType: i.customer_type },
        ]),
      ),
      products: Object.fromEntries(
        Object.entries(payments.offers).map(([id, o]) => [
          id,
          {
            displayName: o.display_name,
            customerType: o.customer_type,
            serverOnly: o.server_only,
            stackable: o.stackable,
            prices: Object.fromEntries(
              Object.entries(o.prices).map(([pid, p]) => [
                pid,
                { USD: p.USD, ...(p.interval ? { interval: p.interval } : {}) },
              ]),
            ),
            includedItems: structuredClone(o.included_items),
          },
        ]),
      ),
    },
    dataVault: {
      stores: Object.fromEntries(Object.entries(vault.stores).map(([id, s]) => [id, { displayName: s.display_name }])),
    },
  };
}

/** The rendered `payments` and `dataVault` sections, without defaults filled in. */
export function paymentSections(ctx: Reader, project: ProjectRecord): { payments: Json; dataVault: Json } {
  const rendered = renderLayers(
    ctx,
    project.id,
    baseSections(project),
    (key) => isUnder(key, "payments") || isUnder(key, "dataVault"),
  );
  return {
    payments: isObject(rendered.payments) ? rendered.payments : {},
    dataVault: isObject(rendered.dataVault) ? rendered.dataVault : {},
  };
}

/** A configured product, with the real service's defaults for what its config leaves out. */
export interface ConfiguredProduct {
  id: string;
  displayName: string;
  customerType: "user" | "team" | "custom";
  productLineId: string | null;
  isAddOnTo: Record<string, true> | false;
  serverOnly: boolean;
  stackable: boolean;
  /** "include-by-default" products have no prices. */
  prices: Record<
    string,
    { amounts: Record<string, string>; interval?: [number, string]; serverOnly: boolean; freeTrial?: [number, string] }
  >;
  includeByDefault: boolean;
  includedItems: Record<string, { quantity: number; repeat: unknown; expires: string }>;
  freeTrial?: [number, string];
}

const customerTypeOf = (v: unknown): "user" | "team" | "custom" => (v === "team" || v === "custom" ? v : "user");
const tuple = (v: unknown): [number, string] | undefined =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === "number" && typeof v[1] === "string" ? [v[0], v[1]] : undefined;

export function productFrom(id: string, p: Json): ConfiguredProduct {
  const prices: ConfiguredProduct["prices"] = {};
  for (const [priceId, price] of entriesOf(p.prices)) {
    const amounts = Object.fromEntries(
      Object.entries(price).filter(([k, v]) => /^[A-Z]{3}$/.test(k) && typeof v === "string"),
    ) as Record<string, string>;
    const interval = tuple(price.interval);
    const freeTrial = tuple(price.freeTrial);
    prices[priceId] = {
      amounts,
      serverOnly: price.serverOnly === true,
      ...(interval ? { interval } : {}),
      ...(freeTrial ? { freeTrial } : {}),
    };
  }
  const isAddOnTo = isObject(p.isAddOnTo)
    ? (Object.fromEntries(Object.keys(p.isAddOnTo).map((k) => [k, true])) as Record<string, true>)
    : false;
  const freeTrial = tuple(p.freeTrial);
  return {
    id,
    displayName: typeof p.displayName === "string" ? p.displayName : id,
    customerType: customerTypeOf(p.customerType),
    productLineId: typeof p.productLineId === "string" ? p.productLineId : null,
    isAddOnTo,
    serverOnly: p.serverOnly === true,
    stackable: p.stackable === true,
    prices,
    includeByDefault: p.prices === "include-by-default",
    includedItems: Object.fromEntries(
      entriesOf(p.includedItems).map(([itemId, g]) => [
        itemId,
        {
          quantity: typeof g.quantity === "number" ? g.quantity : 0,
          repeat: g.repeat ?? "never",
          expires: typeof g.expires === "string" ? g.expires : "when-repeated",
        },
      ]),
    ),
    ...(freeTrial ? { freeTrial } : {}),
  };
}

export function configuredProducts(ctx: Reader, project: ProjectRecord): ConfiguredProduct[] {
  return entriesOf(paymentSections(ctx, project).payments.products).map(([id, p]) => productFrom(id, p));
}

export function paymentsFlags(ctx: Reader, project: ProjectRecord): { testMode: boolean; blockNewPurchases: boolean } {
  const { payments } = paymentSections(ctx, project);
  return { testMode: payments.testMode !== false, blockNewPurchases: payments.blockNewPurchases === true };
}

/** A configured product as the purchase code of domain/ops/payments/purchases.ts holds it (the contract's offer shape). */
export function offerOf(product: ConfiguredProduct, hidden = false): OfferConfig {
  return {
    display_name: product.displayName,
    customer_type: product.customerType,
    server_only: product.serverOnly,
    hidden,
    stackable: product.stackable,
    prices: Object.fromEntries(
      Object.entries(product.prices).map(([id, p]) => [
        id,
        {
          USD: p.amounts.USD ?? "0",
          ...(p.interval && ["day", "week", "month", "year"].includes(p.interval[1])
            ? { interval: p.interval as [number, "day" | "week" | "month" | "year"] }
            : {}),
        },
      ]),
    ),
    // Periodic grants are granted once (renewals are not emulated); expiry follows the purchase, which never ends.
    included_items: Object.fromEntries(
      Object.entries(product.includedItems).map(([id, g]) => [
        id,
        {
          quantity: g.quantity,
          repeat: "never" as const,
          expires: g.expires === "never" ? ("never" as const) : ("when-purchase-expires" as const),
        },
      ]),
    ),
  };
}

/** The rendered catalogue in the contract's (snake-case) shape, as the payment ops and the control view read it. */
export function catalogueOf(ctx: Reader, project: ProjectRecord): PaymentsConfigRecord {
  const { payments } = paymentSections(ctx, project);
  const base = project.config.payments?.offers ?? {};
  return {
    items: Object.fromEntries(
      entriesOf(payments.items).map(([id, i]) => [
        id,
        {
          display_name: typeof i.displayName === "string" ? i.displayName : id,
          customer_type: customerTypeOf(i.customerType),
        },
      ]),
    ),
    offers: Object.fromEntries(
      configuredProducts(ctx, project).map((p) => [p.id, offerOf(p, Object.hasOwn(base, p.id) && base[p.id]!.hidden)]),
    ),
  };
}

export function vaultConfigOf(ctx: Reader, project: ProjectRecord): DataVaultConfigRecord {
  const { dataVault } = paymentSections(ctx, project);
  return {
    stores: Object.fromEntries(
      entriesOf(dataVault.stores).map(([id, s]) => [
        id,
        { display_name: typeof s.displayName === "string" ? s.displayName : "Unnamed Vault" },
      ]),
    ),
  };
}

export function findItem(ctx: Reader, project: ProjectRecord, itemId: string): ItemConfig | undefined {
  const items = catalogueOf(ctx, project).items;
  return Object.hasOwn(items, itemId) ? items[itemId] : undefined;
}

export function findOffer(ctx: Reader, project: ProjectRecord, offerId: string): OfferConfig | undefined {
  const offers = catalogueOf(ctx, project).offers;
  return Object.hasOwn(offers, offerId) ? offers[offerId] : undefined;
}

/**
 * Problems of a catalogue that its schema cannot see: every item an offer includes must exist and serve the offer's
 * customer type (else a purchase could grant what no one can read back).
 */
export function catalogueProblems(catalogue: PaymentsConfigRecord): string[] {
  const problems: string[] = [];
  for (const [offerId, offer] of Object.entries(catalogue.offers)) {
    for (const itemId of Object.keys(offer.included_items)) {
      const item = Object.hasOwn(catalogue.items, itemId) ? catalogue.items[itemId] : undefined;
      if (!item) problems.push(`offers.${offerId}.included_items.${itemId}: no item "${itemId}" in the catalogue`);
      else if (item.customer_type !== offer.customer_type) {
        problems.push(
          `offers.${offerId}.included_items.${itemId}: the item is for ${item.customer_type} customers, the offer for ${offer.customer_type}`,
        );
      }
    }
  }
  return problems;
}

export class PaymentsConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid payments config:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "PaymentsConfigError";
  }
}

/**
 * Replaces the sections given (the base catalogue, and whatever overrides said about the section); returns the
 * project's resulting config. Throws PaymentsConfigError on bad input.
 */
export function setPaymentsConfig(
  ctx: OpContext,
  projectId: string,
  input: PaymentsConfigInput,
): { payments: PaymentsConfigRecord; data_vault: DataVaultConfigRecord } {
  const next = writePaymentsConfig(ctx, projectId, input);
  return { payments: catalogueOf(ctx, next), data_vault: vaultConfigOf(ctx, next) };
}

/** setPaymentsConfig's write, without rendering the answer (the seed discards it: most of a seed's payments cost). */
function writePaymentsConfig(ctx: OpContext, projectId: string, input: PaymentsConfigInput): ProjectRecord {
  const parsed = input === devPaymentsSeed ? devSeedChecked() : checkedPaymentsConfig(input);
  const project = ctx.tables.projects.get(projectId);
  if (!project) throw new PaymentsConfigError([`no project ${projectId}`]);
  const config = {
    ...project.config,
    ...(parsed.payments ? { payments: parsed.payments } : {}),
    ...(parsed.data_vault ? { data_vault: parsed.data_vault } : {}),
  };
  const next = { ...project, config };
  ctx.tables.projects.set(projectId, next);
  clearKeysEverywhere(ctx, projectId, [
    ...(parsed.payments ? ["payments.items", "payments.products", "payments.productLines"] : []),
    ...(parsed.data_vault ? ["dataVault"] : []),
  ]);
  return next;
}

/**
 * A small catalogue for the dev project, so `npm start` has something to buy: user credits, team seats, custom-customer
 * API calls, a few offers (one server-only, one hidden) and one vault store.
 */
export const devPaymentsSeed: PaymentsConfigInput = {
  payments: {
    items: {
      credits: { display_name: "Credits", customer_type: "user" },
      seats: { display_name: "Team seats", customer_type: "team" },
      "api-calls": { display_name: "API calls", customer_type: "custom" },
    },
    offers: {
      "credit-pack": {
        display_name: "100 credits",
        customer_type: "user",
        stackable: true,
        prices: { once: { USD: "5.00" } },
        included_items: { credits: { quantity: 100 } },
      },
      "team-plan": {
        display_name: "Team plan",
        customer_type: "team",
        prices: { monthly: { USD: "20.00", interval: [1, "month"] } },
        included_items: { seats: { quantity: 5 } },
      },
      "enterprise-grant": {
        display_name: "Enterprise grant",
        customer_type: "user",
        server_only: true,
        prices: { free: { USD: "0.00" } },
        included_items: { credits: { quantity: 10_000 } },
      },
      "beta-pack": {
        display_name: "Beta pack",
        customer_type: "user",
        hidden: true,
        prices: { once: { USD: "1.00" } },
        included_items: { credits: { quantity: 10 } },
      },
    },
  } satisfies PaymentsCatalogueInput,
  data_vault: { stores: { default: { display_name: "Default store" } } } satisfies DataVaultConfigInput,
};

/** The input parsed and its catalogue checked; throws PaymentsConfigError on bad input. */
function checkedPaymentsConfig(input: PaymentsConfigInput): PaymentsConfigParsed {
  const parsed = paymentsConfigInput.safeParse(input);
  if (!parsed.success)
    throw new PaymentsConfigError(
      parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`),
    );
  if (parsed.data.payments) {
    const problems = catalogueProblems(parsed.data.payments);
    if (problems.length > 0) throw new PaymentsConfigError(problems);
  }
  return parsed.data;
}
type PaymentsConfigParsed = z.output<typeof paymentsConfigInput>;

/**
 * The dev project's catalogue, parsed and checked once per process rather than on every fresh provider's seed (a
 * fifth of a createFakeProvider(), issue 30). Frozen, as a fork's shared records are: every provider's project record
 * holds these same objects, and records are replaced whole, never changed in place (store/table.ts).
 */
let devSeedParsed: PaymentsConfigParsed | null = null;
function devSeedChecked(): PaymentsConfigParsed {
  if (!devSeedParsed) {
    devSeedParsed = checkedPaymentsConfig(devPaymentsSeed);
    deepFreeze(devSeedParsed);
  }
  return devSeedParsed;
}

/** Applies a seed's payments sections (keyed by project id) after the projects exist (seed.ts). */
export function applyPaymentsSeed(ctx: OpContext, seeds: Record<string, PaymentsConfigInput> | undefined): void {
  for (const [projectId, input] of Object.entries(seeds ?? {})) {
    if (ctx.tables.projects.has(projectId)) writePaymentsConfig(ctx, projectId, input);
  }
}
