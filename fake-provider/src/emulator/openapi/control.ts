import type { Hono } from "hono";
import type { FakeProvider } from "../../provider.ts";
import { json } from "../../api/http/respond.ts";
import { openApiDocument } from "./document.ts";
import { apiReferencePage } from "./page.ts";
import { CONTROL_PREFIX, controlEndpoints } from "@authsim/sdk/emulator";

const openApiPath = `${CONTROL_PREFIX}${controlEndpoints.openApi.path}`;

/**
 * GET /__emulator/openapi.json and GET /__emulator/api-reference. Under the control prefix, not /api/v1: the real
 * service serves no OpenAPI document on its API (its documents are generated into its docs site), and an unknown
 * /api/v1 path must keep answering the plain-text 404 clients see there.
 */
// The page makes no requests and loads nothing: inline style and its filter script only.
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

export function mountOpenApiControl(app: Hono, provider: FakeProvider, prefix: string): void {
  const pages = new Map<string, string>();
  // Tools (editors, generators) fetch the document from other origins.
  app.get(openApiPath, () =>
    json(openApiDocument(provider.settings.apiBaseUrl), 200, { "access-control-allow-origin": "*" }),
  );
  app.get(`${prefix}/api-reference`, () => {
    // Rendered once per API URL (the dev server learns its port after start).
    const base = provider.settings.apiBaseUrl;
    let page = pages.get(base);
    if (page === undefined) {
      page = apiReferencePage(openApiDocument(base), openApiPath);
      pages.set(base, page);
    }
    return new Response(page, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": PAGE_CSP,
        "cache-control": "no-store",
      },
    });
  });
}
