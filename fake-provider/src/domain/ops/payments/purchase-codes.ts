import type { PurchaseSessionBody, ValidatePurchaseCodeJson } from "@authsim/sdk/contract";
import { randomBase32 } from "@authsim/sdk/runtime";
import { knownError } from "../../errors/known-error.ts";
import type { ProjectRecord } from "../../store/records.ts";
import { assertTrustedCallback } from "../oauth/callback-urls.ts";
import type { OpContext } from "../context.ts";
import { inlineProductView } from "./customer-products.ts";
import { ownedProducts } from "./subscriptions.ts";
import { accountOf } from "./payment-accounts.ts";
import { configuredProducts, paymentsFlags } from "./payments-config.ts";
import { assertPurchasesOpen, completeCheckout, openCheckoutSession } from "./purchases.ts";

/**
 * The calls of the checkout page a purchase URL opens (upstream's /payments/purchases/validate-code and
 * purchase-session). They need no authentication: the purchase code is the credential. The emulated provider takes
 * the payment at once, so a purchase session completes the purchase (as the emulator's own checkout page does).
 */

function projectOf(ctx: OpContext, projectId: string): ProjectRecord {
  const project = ctx.tables.projects.get(projectId);
  if (!project) throw knownError("VERIFICATION_CODE_NOT_FOUND");
  return project;
}

/** POST …/validate-code: what the code buys, and whether the customer holds it or a plan of its product line already. */
export function validatePurchaseCode(
  ctx: OpContext,
  body: { full_code: string; return_url?: string | undefined },
): ValidatePurchaseCodeJson {
  const session = openCheckoutSession(ctx, body.full_code);
  const project = projectOf(ctx, session.projectId);
  if (body.return_url !== undefined) assertTrustedCallback(project, body.return_url);
  const owned = ownedProducts(ctx, project.id, { type: session.customerType, id: session.customerId });
  const products = configuredProducts(ctx, project);
  const product = session.offerId === null ? undefined : products.find((p) => p.id === session.offerId);
  const held = session.offerId === null ? undefined : owned.get(session.offerId);
  let conflicting: ValidatePurchaseCodeJson["conflicting_products"] = [];
  if (product?.productLineId && Object.values(product.prices).some((p) => p.interval)) {
    const bases = new Set(product.isAddOnTo === false ? [] : Object.keys(product.isAddOnTo));
    conflicting = [...owned.entries()]
      .filter(
        ([id, h]) =>
          h.quantity > 0 &&
          !bases.has(id) &&
          products.find((p) => p.id === id)?.productLineId === product.productLineId,
      )
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, h]) => ({
        product_id: id,
        display_name: products.find((p) => p.id === id)?.displayName ?? h.offer.display_name,
      }));
  }
  const account = accountOf(ctx, project.id);
  return {
    product: inlineProductView(session.offer),
    stripe_account_id: account?.accountId ?? "",
    project_id: project.id,
    project_logo_url: project.logoUrl ?? null,
    already_bought_non_stackable: held !== undefined && held.quantity > 0 && !session.offer.stackable,
    conflicting_products: conflicting,
    test_mode: paymentsFlags(ctx, project).testMode,
    charges_enabled: account?.onboardedAtMillis != null,
  };
}

/** GET …/validate-code: only that the code names a project (and the return URL is trusted there), as upstream checks. */
export function checkPurchaseCode(
  ctx: OpContext,
  query: { full_code: string; return_url?: string | undefined },
): { valid: true } {
  const project = projectOf(ctx, query.full_code.split("_")[0] ?? "");
  if (query.return_url !== undefined) assertTrustedCallback(project, query.return_url);
  return { valid: true };
}

/**
 * POST …/purchase-session: pays with the emulated provider and completes the purchase; answers a client secret. A
 * one-time price is a payment intent's secret. A recurring one is the secret of the new subscription's first invoice,
 * which the real service's test provider answers empty: the emulated provider does the same, as nothing is left for
 * a browser to confirm once the purchase is complete.
 */
export function purchaseSession(ctx: OpContext, body: PurchaseSessionBody): { client_secret: string } {
  const session = openCheckoutSession(ctx, body.full_code);
  assertPurchasesOpen(ctx, projectOf(ctx, session.projectId));
  completeCheckout(ctx, body.full_code, { priceId: body.price_id, quantity: body.quantity });
  const price = Object.hasOwn(session.offer.prices, body.price_id) ? session.offer.prices[body.price_id] : undefined;
  if (price?.interval) return { client_secret: "" };
  return { client_secret: `pi_${randomBase32(ctx.random, 120)}_secret_${randomBase32(ctx.random, 130)}` };
}
