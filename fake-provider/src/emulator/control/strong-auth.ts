import type { Hono } from "hono";
import { TOTP_PARAMETERS, constants, oauthInnerStateCookie } from "@authsim/sdk/contract";
import type { FakeProvider } from "../../provider.ts";
import { cookieHeader } from "../../api/http/cookies.ts";
import { StatusError } from "../../domain/errors/known-error.ts";
import { json } from "../../api/http/respond.ts";
import { runOp } from "../../domain/run-op.ts";
import { accountForEmail, suggestAccount } from "../../domain/ops/oauth/mock-identities.ts";
import { mockIdpPath } from "../../domain/ops/oauth/oauth-authorize.ts";
import {
  decide,
  flowForPage,
  isIdpErrorCode,
  requestedScopes,
  type IdpDecision,
} from "../../domain/ops/oauth/oauth-idp.ts";
import type { Tables } from "../../domain/store/store.ts";
import { currentTotp, totpStepEndsAt } from "../../domain/ops/sign-in/totp.ts";
import { pathOf } from "./control-input.ts";
import { idpErrorPage, idpPage, type KnownAccount } from "./oauth-idp-page.ts";
import { refusal } from "../../domain/errors/refusals.ts";

/**
 * Emulator-only pages and endpoints of strong auth (outside /api/v1, no authentication, like the rest of emulator/control/):
 *
 * - GET / POST `/__emulator/oauth/authorize/:provider_id?state=<inner state>`: the mock identity provider. GET shows
 *   the page; POST (its form, or a test's) answers 303 to the provider's callback. Both (re)set the flow's inner-state
 *   cookie: in JSON mode the app's cross-origin fetch of authorize cannot keep it, the browser's visit here can.
 * - GET `/__emulator/users/:user_id/totp`: the TOTP code the user's authenticator app would show now, by the
 *   emulator's clock (`{code, period_seconds, valid_until_millis}`).
 */

const html = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(body, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers },
  });

function pageError(error: unknown): Response {
  if (error instanceof StatusError) return html(idpErrorPage(error.message), error.status);
  throw error;
}

/** The form's answer as a decision (field names: emulator/control/oauth-idp-page.ts). */
export function decisionFromForm(form: URLSearchParams, requested: readonly string[], providerId: string): IdpDecision {
  if (form.get("action") === "deny") return { deny: true };
  if (form.get("action") === "error") {
    const error = form.get("error") ?? "";
    if (!isIdpErrorCode(error)) throw refusal("idpErrorNotOffered", error);
    return { deny: true, error };
  }
  const chosen = [...form.getAll("scope"), ...(form.get("scopes") ?? "").split(/\s+/)].filter((s) => s.length > 0);
  const anyScopeField = form.has("scope") || form.has("scopes") || form.has("scopes_present");
  // The page sends a hidden "false" before its checkbox, so the last value wins; a form without the field (a test's
  // shorthand) means verified, as most providers' addresses are.
  const verified = form.getAll("email_verified").at(-1) ?? "true";
  const email = form.get("email")?.trim() || null;
  // No account id: the one the address stands for (the same address is the same account every time).
  const accountId = form.get("account_id")?.trim() || (email ? accountForEmail(providerId, email).accountId : "");
  return {
    deny: false,
    identity: {
      accountId,
      email,
      emailVerified: verified === "on" || verified === "true",
      displayName: form.get("name") || null,
      scopes: anyScopeField ? chosen : [...requested],
    },
  };
}

/**
 * Accounts seen before at this provider on this emulator (any project: an account at GitHub is the same person
 * wherever they sign in), newest first, with the name their user has now.
 */
function knownAccounts(tables: Tables, providerId: string): KnownAccount[] {
  const seen = new Map<string, KnownAccount>();
  const accounts = [...tables.oauthAccounts.values()]
    .filter((a) => a.providerConfigId === providerId)
    .sort((a, b) => b.createdAtMillis - a.createdAtMillis);
  for (const a of accounts) {
    if (seen.has(a.providerAccountId)) continue;
    seen.set(a.providerAccountId, {
      accountId: a.providerAccountId,
      email: a.email,
      name: tables.users.get(a.userId)?.displayName ?? null,
    });
  }
  return [...seen.values()].slice(0, 8);
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
      const known = knownAccounts(provider.store.read, providerId);
      // "Use this email" asks for the account an address stands for; otherwise a new one, drawn from the random source.
      const email = c.req.query("email")?.trim();
      const taken = new Set(known.flatMap((a) => (a.email ? [a.email.toLowerCase()] : [])));
      const suggested = email ? accountForEmail(providerId, email) : suggestAccount(provider.random, providerId, taken);
      const action = `${mockIdpPath(providerId)}?state=${encodeURIComponent(innerState)}`;
      const page = idpPage({
        flow,
        projectName: project?.displayName ?? flow.projectId,
        action,
        requested: requestedScopes(flow),
        known,
        suggested,
      });
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
      const location = await runOp(provider, (ctx) =>
        decide(
          ctx,
          providerId,
          innerState,
          decisionFromForm(form, requestedScopes(flowForPage(ctx.tables, providerId, innerState)), providerId),
        ),
      );
      return new Response(null, {
        status: 303,
        headers: { location, "set-cookie": innerCookie(c.req.raw, innerState) },
      });
    } catch (error) {
      return pageError(error);
    }
  });

  app.get(pathOf("totp"), (c) => {
    const user = provider.store.read.users.get(c.req.param("user_id"));
    if (!user) return json({ error: `No user ${c.req.param("user_id")}` }, 404);
    if (user.totpSecretBase64 === null)
      return json({ error: "The user has no TOTP secret (multi-factor authentication is off)." }, 404);
    const now = provider.clock.now();
    return json({
      code: currentTotp(user.totpSecretBase64, now),
      period_seconds: TOTP_PARAMETERS.periodSeconds,
      valid_until_millis: totpStepEndsAt(now),
    });
  });
}
