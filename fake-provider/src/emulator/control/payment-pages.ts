import type { CheckoutSessionRecord, PaymentAccountRecord } from "../../domain/store/payment-records.ts";

/**
 * The emulator's stand-ins for the hosted checkout and the payment-provider onboarding: plain HTML with one form each,
 * no scripts and no CDN, so they work offline, in a browser and from a test that reads the form and posts it.
 */

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · authsim</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; color: #1a1a1a; }
.note { color: #666; font-size: 0.9rem; }
fieldset { border: 1px solid #ccc; border-radius: 6px; margin: 1rem 0; }
button { font-size: 1rem; padding: 0.5rem 1.25rem; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
<p class="note">authsim emulator: nothing is charged and no payment provider is contacted.</p>
</body>
</html>
`;
}

export function htmlResponse(html: string, status = 200): Response {
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

export function checkoutPage(session: CheckoutSessionRecord, action: string): string {
  const { offer } = session;
  const prices = Object.entries(offer.prices);
  const priceInputs = prices
    .map(([id, price], i) => {
      const interval = price.interval
        ? ` every ${price.interval[0]} ${price.interval[1]}${price.interval[0] === 1 ? "" : "s"}`
        : "";
      return `<label><input type="radio" name="price_id" value="${escapeHtml(id)}"${i === 0 ? " checked" : ""}> ${escapeHtml(id)}: $${escapeHtml(price.USD)}${escapeHtml(interval)}</label><br>`;
    })
    .join("\n");
  const items = Object.entries(offer.included_items)
    .map(([id, grant]) => `<li>${grant.quantity} × ${escapeHtml(id)}</li>`)
    .join("\n");
  const quantity = offer.stackable
    ? `<label>Quantity <input type="number" name="quantity" value="1" min="1" step="1"></label>`
    : `<input type="hidden" name="quantity" value="1">`;
  return page(
    `Checkout: ${offer.display_name}`,
    `<p>For ${escapeHtml(session.customerType)} <code>${escapeHtml(session.customerId)}</code>.</p>
<ul>
${items}
</ul>
<form method="post" action="${escapeHtml(action)}">
${prices.length > 0 ? `<fieldset><legend>Price</legend>\n${priceInputs}\n</fieldset>` : "<p>Free.</p>"}
${quantity}
<button type="submit">Complete purchase</button>
</form>`,
  );
}

export function purchaseCompletePage(session: CheckoutSessionRecord): string {
  return page(
    "Purchase complete",
    `<p data-purchase-complete="${escapeHtml(session.fullCode)}">${escapeHtml(session.offer.display_name)} was purchased.</p>`,
  );
}

export function onboardingPage(account: PaymentAccountRecord, action: string): string {
  const done = account.onboardedAtMillis !== null;
  return page(
    "Payments onboarding",
    `<p>Account <code>${escapeHtml(account.accountId)}</code>: ${done ? "onboarding completed" : "onboarding not completed"}.</p>
${done ? "" : `<form method="post" action="${escapeHtml(action)}"><button type="submit">Complete onboarding</button></form>`}`,
  );
}

/** A refused page: the catalogue code is in the markup (and the status is the code's), for people and tests alike. */
export function errorPage(code: string, message: string, status: number): Response {
  return htmlResponse(
    page("Checkout unavailable", `<p data-known-error="${escapeHtml(code)}">${escapeHtml(message)}</p>`),
    status,
  );
}
