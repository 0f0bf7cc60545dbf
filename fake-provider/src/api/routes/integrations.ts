import type { IntegrationFamily } from "@authsim/sdk/contract";
import { requireIntegrationClient } from "../../domain/ops/integrations/integration-clients.ts";
import {
  confirmInteraction,
  exchangeIntegrationCode,
  idpBasePath,
  idpRequest,
  type IdpAnswer,
  type IdpCookie,
} from "../../domain/ops/integrations/integration-idp.ts";
import {
  confirmTransfer,
  connectNeonProject,
  provisionProject,
  startTransfer,
  transferReadiness,
} from "../../domain/ops/integrations/integration-projects.ts";
import {
  addIntegrationDomain,
  addNeonOAuthProvider,
  addNeonWebhook,
  listIntegrationDomains,
  listNeonOAuthProviders,
  removeIntegrationDomain,
  removeNeonOAuthProvider,
  updateNeonOAuthProvider,
} from "../../domain/ops/integrations/integration-admin.ts";
import { createInternalApiKey } from "../../domain/ops/projects/internal-api-keys.ts";
import { internalApiKeyFirstView } from "../../domain/views/internal-api-keys.ts";
import { internalApiKeyRoutes } from "./internal-api-keys.ts";
import { projectAdminRoutes } from "./project-admin.ts";
import { projectRoutes } from "./projects.ts";
import { urlOf } from "../http/request-url.ts";
import { rawBodyOf, stringFields } from "../http/parse.ts";
import { created, ok, success, type RouteTable } from "./define.ts";

/**
 * /integrations/neon/* and /integrations/custom/* (domain/ops/integrations/): one table of routes for both families,
 * plus Neon's own. The identity provider's answers are built here: its redirects carry the body its web framework
 * gives one (an HTML link), its cookies are set with the lower-case attributes it writes.
 */

const where = (request: Request) => ({ method: request.method, pathname: urlOf(request).pathname });
const clientOf = (request: Request) =>
  requireIntegrationClient(where(request), request.headers.get("authorization") ?? undefined);

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

function setCookie(c: IdpCookie): string {
  return `${c.name}=${c.value}; path=${c.path}; expires=${new Date(c.expiresAtMillis).toUTCString()}; samesite=lax; httponly`;
}

/** The page interaction/<uid>/done answers to a GET: it posts itself, so a plain browser redirect can finish the step. */
const CONTINUE_PAGE = `<!DOCTYPE html>
<html>
  <head><title>Continuing sign-in</title></head>
  <body>
    <form id="continue" method="POST"><p>Continuing… If nothing happens, press the button.</p><button type="submit">Continue</button></form>
    <script>document.getElementById("continue").submit();</script>
  </body>
</html>
`;

function idpResponse(answer: IdpAnswer): Response {
  if (answer.kind === "continue-page")
    return new Response(CONTINUE_PAGE, { status: 200, headers: { "content-type": "text/html; charset=utf-8" } });
  if (answer.kind === "json")
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json; charset=utf-8", ...answer.headers },
    });
  const headers = new Headers({ location: answer.location });
  for (const cookie of answer.cookies) headers.append("set-cookie", setCookie(cookie));
  if (answer.emptyBody) return new Response(null, { status: answer.status, headers });
  const link = escapeHtml(answer.location);
  headers.set("content-type", "text/html; charset=utf-8");
  return new Response(`Redirecting to <a href="${link}">${link}</a>.`, { status: answer.status, headers });
}

function cookiesOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return out;
}

const formOf = (request: Request) => stringFields(request.headers.get("content-type") ?? "", rawBodyOf(request) ?? "");

type Parts = Parameters<NonNullable<RouteTable["neonIdpPost"]>["handler"]>[0];

function familyRoutes(family: IntegrationFamily): RouteTable {
  const id = (name: string) => `${family}${name}`;
  const idp = {
    handler: async ({ ctx, params, request }: Parts) =>
      idpResponse(
        await idpRequest(ctx, family, {
          method: request.method,
          route: params.route,
          query: Object.fromEntries(urlOf(request).searchParams),
          form: request.method === "GET" ? {} : formOf(request),
          cookies: cookiesOf(request),
          authorization: request.headers.get("authorization") ?? undefined,
        }),
      ),
  };
  const transfer = {
    handler: ({ ctx, body, request }: { ctx: Parts["ctx"]; body: { project_id: string }; request: Request }) =>
      ok(startTransfer(ctx, family, clientOf(request), body.project_id)),
  };
  const routes: Record<string, unknown> = {
    [id("ProvisionProject")]: {
      handler: ({ ctx, body, request }: { ctx: Parts["ctx"]; body: { display_name: string }; request: Request }) =>
        ok(provisionProject(ctx, family, clientOf(request), body)),
    },
    [id("TransferReadiness")]: {
      handler: ({ ctx, query, request }: { ctx: Parts["ctx"]; query: { project_id: string }; request: Request }) =>
        ok(transferReadiness(ctx, family, clientOf(request), query.project_id)),
    },
    [id("TransferStart")]: transfer,
    [id("TransferInitiate")]: transfer,
    [id("TransferConfirm")]: {
      handler: ({ ctx, auth, body }: Parts & { body: { code: string } }) =>
        ok(confirmTransfer({ ...ctx, auth: auth! }, family, body.code, { checkOnly: false })),
    },
    [id("TransferConfirmCheck")]: {
      handler: ({ ctx, auth, body }: Parts & { body: { code: string } }) =>
        ok(confirmTransfer({ ...ctx, auth: auth! }, family, body.code, { checkOnly: true })),
    },
    [id("ListDomains")]: { handler: ({ auth }: Parts) => ok(listIntegrationDomains(auth!.project)) },
    [id("CreateDomain")]: {
      handler: ({ ctx, auth, body }: Parts & { body: { domain: string } }) =>
        created(addIntegrationDomain(ctx, auth!.project, body.domain)),
    },
    [id("DeleteDomain")]: {
      handler: ({ ctx, auth, params }: Parts & { params: { domain: string } }) => {
        removeIntegrationDomain(ctx, auth!.project, params.domain);
        return success();
      },
    },
    [id("InternalConfirm")]: {
      handler: ({ ctx, auth, body }: Parts & { body: { interaction_uid: string; project_id: string } }) =>
        ok(confirmInteraction(ctx, family, auth!.project.id, body)),
    },
    [id("OauthEndpoints")]: {
      handler: ({ ctx }: Parts) => {
        const base = `${ctx.settings.apiBaseUrl}/api/v1/integrations/${family}/oauth`;
        return new Response(`Authorization endpoint: ${base}/authorize\nToken endpoint: ${base}/token`, {
          status: 200,
          headers: { "content-type": "text/plain; charset=utf-8" },
        });
      },
    },
    [id("OauthAuthorize")]: {
      // The same query, in the order it came, with scope=openid, to the provider's auth endpoint.
      handler: ({ ctx, request }: Parts) => {
        const url = new URL(`${ctx.settings.apiBaseUrl}${idpBasePath(family)}/auth`);
        for (const [k, v] of urlOf(request).searchParams) url.searchParams.set(k, v);
        url.searchParams.set("scope", "openid");
        return new Response(null, { status: 307, headers: { location: url.toString() } });
      },
    },
    [id("IdpGet")]: idp,
    [id("IdpPost")]: idp,
    [id("IdpPut")]: idp,
    [id("IdpPatch")]: idp,
    [id("IdpDelete")]: idp,
    [id("OauthToken")]: {
      handler: async ({ ctx, body, request }: Parts & { body: Record<string, string> }) => {
        const authorization = request.headers.get("authorization") ?? "";
        clientOf(request);
        const exchanged = await exchangeIntegrationCode(ctx, family, body, authorization);
        if (!exchanged.ok)
          return new Response(exchanged.text, {
            status: exchanged.status,
            headers: { "content-type": "text/plain; charset=utf-8" },
          });
        return ok(exchanged.result);
      },
    },
  };
  return routes as RouteTable;
}

/** Neon's own routes: its databases, and admin views of the project that calls. */
const neonRoutes: RouteTable = {
  neonProjectConnection: {
    handler: ({ ctx, query, body, request }) =>
      ok(connectNeonProject(ctx, clientOf(request), query.project_id, body.connection_strings)),
  },
  // Upstream's Neon routes re-export the internal handlers: the same routes here.
  neonGetProject: projectRoutes.getAdminProject!,
  neonUpdateProject: projectAdminRoutes.updateAdminProject!,
  neonListApiKeys: internalApiKeyRoutes.listInternalApiKeys!,
  neonCreateApiKey: {
    handler: ({ auth, ctx, body }) => ok(internalApiKeyFirstView(createInternalApiKey(ctx, auth.project.id, body))),
  },
  neonGetApiKey: internalApiKeyRoutes.getInternalApiKey!,
  neonUpdateApiKey: internalApiKeyRoutes.updateInternalApiKey!,
  neonListOAuthProviders: { handler: ({ auth }) => ok(listNeonOAuthProviders(auth.project)) },
  neonCreateOAuthProvider: { handler: ({ auth, ctx, body }) => created(addNeonOAuthProvider(ctx, auth.project, body)) },
  neonUpdateOAuthProvider: {
    handler: ({ auth, ctx, params, body }) =>
      ok(updateNeonOAuthProvider(ctx, auth.project, params.oauth_provider_id, body)),
  },
  neonDeleteOAuthProvider: {
    handler: ({ auth, ctx, params }) => {
      removeNeonOAuthProvider(ctx, auth.project, params.oauth_provider_id);
      return success();
    },
  },
  neonCreateWebhook: {
    handler: ({ auth, ctx, body, request }) => {
      clientOf(request);
      return ok(addNeonWebhook(ctx, auth.project.id, body));
    },
  },
};

export const integrationRoutes: RouteTable = { ...familyRoutes("neon"), ...familyRoutes("custom"), ...neonRoutes };
