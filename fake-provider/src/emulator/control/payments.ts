import type { Hono } from "hono";
import { z } from "zod";
import type { FakeProvider } from "../../provider.ts";
import { KnownErrorException, StatusError } from "../../domain/errors/known-error.ts";
import { json, text } from "../../api/http/respond.ts";
import { runOp } from "../../domain/run-op.ts";
import { completeOnboarding, findAccount, onboardingPath } from "../../domain/ops/payments/payment-accounts.ts";
import {
  catalogueOf,
  PaymentsConfigError,
  setPaymentsConfig,
  vaultConfigOf,
  type PaymentsConfigInput,
} from "../../domain/ops/payments/payments-config.ts";
import { completeCheckout, openCheckoutSession } from "../../domain/ops/payments/purchases.ts";
import { confirmSetupIntent } from "../../domain/ops/payments/payment-methods.ts";
import { controlEndpoints as ep } from "@authsim/sdk/emulator";
import type { DataVaultConfigRecord, PaymentsConfigRecord } from "../../domain/store/payment-records.ts";
import { pathOf } from "./control-input.ts";
import { checkoutPage, errorPage, htmlResponse, onboardingPage, purchaseCompletePage } from "./payment-pages.ts";

/**
 * Emulator-only payment endpoints (outside /api/v1, no authentication, like the rest of emulator/control/):
 *
 * - GET / PUT `/__emulator/projects/:id/payments-config`: a project's catalogue (`payments: {items, offers}`) and vault
 *   stores (`data_vault: {stores}`); PUT replaces the sections it names. Stands in for the admin config endpoint.
 * - GET / POST `/__emulator/purchase/:full_code` (also `/__emulator/checkout/:full_code`, its older path): the page a
 *   purchase URL opens, at the path the real service's dashboard uses (`/purchase/{code}`); posting its form (price_id, quantity)
 *   completes the purchase, then redirects (303) to the purchase's return_url or shows a confirmation.
 * - GET / POST `/__emulator/payments/onboarding/:account_id`: the page /internal/payments/setup links to; posting it
 *   enables charges, details and payouts of the project's account, then redirects (303) to the return URL setup fixed
 *   (the dashboard's payments page, or the new-project wizard at its payments step).
 * - POST `/__emulator/payments/setup-intents/confirm` `{client_secret, card?}`: what the payment provider's browser
 *   script does with a setup intent's secret and the card typed (domain/ops/payments/payment-methods.ts confirmSetupIntent);
 *   answers the intent, whose id set-default takes. A refused card answers `{error}` with the provider's status.
 */

export interface PaymentsConfigView {
  payments: PaymentsConfigRecord;
  data_vault: DataVaultConfigRecord;
}

/** The in-process form of PUT …/payments-config: for tests that hold the provider. */
export function configurePayments(
  provider: FakeProvider,
  projectId: string,
  input: PaymentsConfigInput,
): Promise<PaymentsConfigView> {
  return runOp(provider, (ctx) => setPaymentsConfig(ctx, projectId, input));
}

const checkoutForm = z.object({
  price_id: z.string().min(1).optional(),
  quantity: z.coerce.number().int().positive().optional(),
});

function pageError(error: unknown): Response {
  if (error instanceof KnownErrorException) return errorPage(error.code, error.message, error.status);
  if (error instanceof StatusError) return errorPage("", error.message, error.status);
  throw error;
}

export function mountPaymentsControl(app: Hono, provider: FakeProvider, prefix: string): void {
  app.get(pathOf("paymentsConfig"), (c) => {
    const project = provider.store.read.projects.get(c.req.param("project_id"));
    if (!project) return json({ error: `No project ${c.req.param("project_id")}` }, 404);
    const reader = { tables: provider.store.read };
    return json({
      payments: catalogueOf(reader, project),
      data_vault: vaultConfigOf(reader, project),
    } satisfies PaymentsConfigView);
  });
  app.put(pathOf("setPaymentsConfig"), async (c) => {
    const projectId = c.req.param("project_id");
    if (!provider.store.read.projects.has(projectId)) return json({ error: `No project ${projectId}` }, 404);
    let input: unknown;
    try {
      input = JSON.parse(await c.req.text());
    } catch {
      return json({ error: "Invalid JSON in request body" }, 400);
    }
    try {
      return json(await configurePayments(provider, projectId, input as PaymentsConfigInput));
    } catch (error) {
      if (error instanceof PaymentsConfigError)
        return json({ error: "Invalid payments config", issues: error.problems }, 400);
      throw error;
    }
  });

  app.post(pathOf("confirmSetupIntent"), async (c) => {
    let raw: unknown;
    try {
      raw = JSON.parse(await c.req.text());
    } catch {
      return json({ error: "Invalid JSON in request body" }, 400);
    }
    const parsed = ep.confirmSetupIntent.body.safeParse(raw);
    if (!parsed.success)
      return json(
        { error: "Invalid body", issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) },
        400,
      );
    const { client_secret, card } = parsed.data;
    try {
      return json(await runOp(provider, (ctx) => confirmSetupIntent(ctx, client_secret, card)));
    } catch (error) {
      if (error instanceof StatusError) return json({ error: error.message }, error.status);
      throw error;
    }
  });

  // The form posts to the older path, the one the request guard lets forms reach (emulator/safety/request-guard.ts FORM_PATHS).
  const formAction = (fullCode: string) => `${prefix}/checkout/${encodeURIComponent(fullCode)}`;
  for (const page of ["purchase", "checkout"])
    mountCheckoutPage(app, provider, `${prefix}/${page}/:full_code`, formAction);

  app.get(`${prefix}/payments/onboarding/:account_id`, (c) => {
    // A read needs no transaction (store.ts: writes happen only inside transact).
    const account = findAccount({ tables: provider.store.read }, c.req.param("account_id"));
    if (!account) return errorPage("", "No such payments account.", 404);
    return htmlResponse(onboardingPage(account, onboardingPath(account.accountId)));
  });
  app.post(`${prefix}/payments/onboarding/:account_id`, async (c) => {
    const account = await runOp(provider, (ctx) => completeOnboarding(ctx, c.req.param("account_id")));
    if (!account) return errorPage("", "No such payments account.", 404);
    // Back where setup came from, as the payment provider's onboarding returns to the account link's return_url.
    if (account.returnUrl) return new Response(null, { status: 303, headers: { location: account.returnUrl } });
    return htmlResponse(onboardingPage(account, onboardingPath(account.accountId)));
  });
}

/** The checkout page a purchase URL opens, and its form's submission. */
function mountCheckoutPage(
  app: Hono,
  provider: FakeProvider,
  path: string,
  formAction: (fullCode: string) => string,
): void {
  app.get(path, async (c) => {
    const fullCode = c.req.param("full_code") ?? "";
    try {
      const session = await runOp(provider, (ctx) => openCheckoutSession(ctx, fullCode));
      return htmlResponse(checkoutPage(session, formAction(fullCode)));
    } catch (error) {
      return pageError(error);
    }
  });
  app.post(path, async (c) => {
    const fullCode = c.req.param("full_code") ?? "";
    const form = checkoutForm.safeParse(Object.fromEntries(new URLSearchParams(await c.req.text())));
    if (!form.success)
      return text(
        `Invalid checkout form: ${form.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
        400,
      );
    try {
      const session = await runOp(provider, (ctx) =>
        completeCheckout(ctx, fullCode, {
          ...(form.data.price_id === undefined ? {} : { priceId: form.data.price_id }),
          ...(form.data.quantity === undefined ? {} : { quantity: form.data.quantity }),
        }),
      );
      if (session.returnUrl) return new Response(null, { status: 303, headers: { location: session.returnUrl } });
      return htmlResponse(purchaseCompletePage(session));
    } catch (error) {
      return pageError(error);
    }
  });
}

/**
 * What answers on the dashboard's port of the real development setup (<prefix>01) when the dev server stands in for it
 * (`--dev-ports`): the purchase page at the dashboard's own path, `/purchase/{code}`, which purchase URLs then name, and
 * the checkout form it posts to; nothing else of the dashboard. Served by the provider's app at the control plane's
 * paths, so the same request guard applies (the form's own origin is this port's).
 */
export function purchasePortFetch(
  appFetch: (request: Request) => Response | Promise<Response>,
  controlPrefix: string,
): (request: Request) => Response | Promise<Response> {
  return (request) => {
    const url = new URL(request.url);
    const page = /^\/purchase\/[^/]+$/.test(url.pathname);
    const form =
      url.pathname.startsWith(`${controlPrefix}/checkout/`) &&
      !url.pathname.slice(controlPrefix.length + 10).includes("/");
    if (!page && !form) return text("Not Found: this port serves only the purchase pages (/purchase/{code}).", 404);
    if (page) url.pathname = `${controlPrefix}${url.pathname}`;
    return appFetch(new Request(url, request));
  };
}
