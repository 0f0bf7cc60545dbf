import { z } from "zod";
import {
  dataVaultConfig,
  paymentsCatalogue,
  type DataVaultConfigInput,
  type ItemConfig,
  type OfferConfig,
  type PaymentsCatalogueInput,
} from "@authsim/sdk/contract";
import type { ProjectRecord } from "../store/records.ts";
import type { DataVaultConfigRecord, PaymentsConfigRecord } from "../store/payment-records.ts";
import type { OpContext } from "./context.ts";

/**
 * The payments catalogue and the vault's stores of a project (project config, spec §3). No public endpoint edits them
 * yet (the admin config endpoint is another issue), so they come from the provider seed and from the emulator control
 * endpoint /__emulator/projects/:id/payments-config (control/payments.ts).
 */

/** What a seed or the control endpoint may set; a section left out is left as it is. */
export const paymentsConfigInput = z.strictObject({
  payments: paymentsCatalogue.optional(),
  data_vault: dataVaultConfig.optional(),
});
export type PaymentsConfigInput = z.input<typeof paymentsConfigInput>;

const emptyCatalogue: PaymentsConfigRecord = { items: {}, offers: {} };
const emptyVault: DataVaultConfigRecord = { stores: {} };

export function catalogueOf(project: ProjectRecord): PaymentsConfigRecord {
  return project.config.payments ?? emptyCatalogue;
}

export function vaultConfigOf(project: ProjectRecord): DataVaultConfigRecord {
  return project.config.data_vault ?? emptyVault;
}

export function findItem(project: ProjectRecord, itemId: string): ItemConfig | undefined {
  return Object.hasOwn(catalogueOf(project).items, itemId) ? catalogueOf(project).items[itemId] : undefined;
}

export function findOffer(project: ProjectRecord, offerId: string): OfferConfig | undefined {
  return Object.hasOwn(catalogueOf(project).offers, offerId) ? catalogueOf(project).offers[offerId] : undefined;
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
        problems.push(`offers.${offerId}.included_items.${itemId}: the item is for ${item.customer_type} customers, the offer for ${offer.customer_type}`);
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

/** Replaces the sections given; returns the project's resulting config. Throws PaymentsConfigError on bad input. */
export function setPaymentsConfig(ctx: OpContext, projectId: string, input: PaymentsConfigInput): { payments: PaymentsConfigRecord; data_vault: DataVaultConfigRecord } {
  const parsed = paymentsConfigInput.safeParse(input);
  if (!parsed.success) throw new PaymentsConfigError(parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`));
  const project = ctx.tables.projects.get(projectId);
  if (!project) throw new PaymentsConfigError([`no project ${projectId}`]);
  const payments = parsed.data.payments ?? catalogueOf(project);
  const problems = catalogueProblems(payments);
  if (problems.length > 0) throw new PaymentsConfigError(problems);
  const data_vault = parsed.data.data_vault ?? vaultConfigOf(project);
  ctx.tables.projects.set(projectId, { ...project, config: { ...project.config, payments, data_vault } });
  return { payments, data_vault };
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

/** Applies a seed's payments sections (keyed by project id) after the projects exist (seed.ts). */
export function applyPaymentsSeed(ctx: OpContext, seeds: Record<string, PaymentsConfigInput> | undefined): void {
  for (const [projectId, input] of Object.entries(seeds ?? {})) {
    if (ctx.tables.projects.has(projectId)) setPaymentsConfig(ctx, projectId, input);
  }
}
