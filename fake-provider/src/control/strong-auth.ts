import type { Hono } from "hono";
import { TOTP_PARAMETERS, constants, oauthInnerStateCookie } from "@authsim/sdk/contract";
import type { FakeProvider } from "../provider.ts";
import { cookieHeader } from "../http/cookies.ts";
import { StatusError } from "../http/known-error.ts";
import { json } from "../http/respond.ts";
import { runOp } from "../run-op.ts";
import { accountsOfProject } from "../ops/oauth-accounts.ts";
import { mockIdpPath } from "../ops/oauth-authorize.ts";
import { decide, flowForPage, requestedScopes, type IdpDecision } from "../ops/oauth-idp.ts";
import { currentTotp, totpStepEndsAt } from "../ops/totp.ts";
import { idpErrorPage, idpPage } from "./oauth-idp-page.ts";

/**
 * Emulator-only pages and endpoints of strong auth (outside /api/v1, no authentication, like the rest of control/):
 *
 * - GET / POST `/__emulator/oauth/authorize/:provider_id?state=<inner state>`: the mock identity provider. GET shows
 *   the page; POST (its form, or a test's) answers 303 to the provider's callback. Both (re)set the flow's inner-state
 *   cookie: in JSON mode the app's cross-origin fetch of authorize cannot keep it, the browser's visit here can.
 * - GET `/__emulator/users/:user_id/totp`: the TOTP code the user's authenticator app would show now, by the
 *   emulator's clock (`{code, period_seconds, valid_until_millis}`).
 */

const html = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers } });

function pageError(error: unknown): Response {
  if (error instanceof StatusError) return html(idpErrorPage(error.message), error.status);
  throw error;
}

/** The form's answer as a decision (field names: control/oauth-idp-page.ts). */
export function decisionFromForm(form: URLSearchParams, requested: readonly string[]): IdpDecision {
  if (form.get("action") === "deny") return { deny: true };
  const chosen = [...form.getAll("scope"), ...(form.get("scopes") ?? "").split(/\s+/)].filter((s) => s.length > 0);
  const anyScopeField = form.has("scope") || form.has("scopes") || form.has("scopes_present");
  // The page sends a hidden "false" before its checkbox, so the last value wins; a form without the field (a test's
  // shorthand) means verified, as most providers' addresses are.
  const verified = form.getAll("email_verified").at(-1) ?? "true";
  return {
    deny: false,
    identity: {
      accountId: form.get("account_id") ?? "",
      email: form.get("email") || null,
      emailVerified: verified === "on" || verified === "true",
      displayName: form.get("name") || null,
      scopes: anyScopeField ? chosen : [...requested],
    },
  };
}

export function mountStrongAuthControl(app: Hono, provider: FakeProvider, prefix: string): void {
  const innerCookie = (request: Request, innerState: string) =>
    cookieHeader(request, oauthInnerStateCookie(innerState), "true", constants.oauthOuterStateCookieMaxAgeSeconds);

  app.get(`${prefix}/oauth/authorize/:provider_id`, (c) => {
    const providerId = c.req.param("provider_id");
    const innerState = c.req.query("state") ?? "";
    try {
      const flow = flowForPage(provider.store.read, providerId, innerState);
      const project = provider.store.read.projects.get(flow.projectId);
      const known = accountsOfProject({ tables: provider.store.read }, flow.projectId).filter((a) => a.providerConfigId === providerId);
      const page = idpPage({ flow, projectName: project?.displayName ?? flow.projectId, action: `${mockIdpPath(providerId)}?state=${encodeURIComponent(innerState)}`, requested: requestedScopes(flow), known });
      return html(page, 200, { "set-cookie": innerCookie(c.req.raw, innerState) });
    } catch (error) {
      return pageError(error);
    }
  });

  app.post(`${prefix}/oauth/authorize/:provider_id`, async (c) => {
    const providerId = c.req.param("provider_id");
    const form = new URLSearchParams(await c.req.text());
    const innerState = form.get("state") ?? c.req.query("state") ?? "";
    try {
      const location = await runOp(provider, (ctx) => decide(ctx, providerId, innerState, decisionFromForm(form, requestedScopes(flowForPage(ctx.tables, providerId, innerState)))));
      return new Response(null, { status: 303, headers: { location, "set-cookie": innerCookie(c.req.raw, innerState) } });
    } catch (error) {
      return pageError(error);
    }
  });

  app.get(`${prefix}/users/:user_id/totp`, (c) => {
    const user = provider.store.read.users.get(c.req.param("user_id"));
    if (!user) return json({ error: `No user ${c.req.param("user_id")}` }, 404);
    if (user.totpSecretBase64 === null) return json({ error: "The user has no TOTP secret (multi-factor authentication is off)." }, 404);
    const now = provider.clock.now();
    return json({ code: currentTotp(user.totpSecretBase64, now), period_seconds: TOTP_PARAMETERS.periodSeconds, valid_until_millis: totpStepEndsAt(now) });
  });
}
