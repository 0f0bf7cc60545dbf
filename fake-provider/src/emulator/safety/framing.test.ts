import type { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { lazyRoutes } from "../../lazy-routes.ts";
import { newProvider } from "../../test-support/api.ts";
import { createMockOAuthServer } from "../mock-oauth/server.ts";
import { forbidFraming, FRAME_ANCESTORS_POLICY, FRAME_OPTIONS } from "./framing.ts";

/** Every HTML page the emulator serves may be framed by its own origin only (clickjacking of the dashboard, issue 31). */

/** Each GET route of the app outside the API, its parameters filled with a placeholder, answered: the HTML ones. */
async function htmlPages(app: Hono, origin: string): Promise<{ path: string; response: Response }[]> {
  const paths = new Set(
    [...app.routes, ...lazyRoutes(app)]
      .filter((r) => r.method === "GET" && !r.path.startsWith("/api/"))
      .map((r) => r.path.replace(/:[^/]+/g, "x").replace(/\*/g, "x")),
  );
  const pages: { path: string; response: Response }[] = [];
  for (const path of paths) {
    const response = await app.fetch(new Request(`${origin}${path}`));
    if ((response.headers.get("content-type") ?? "").startsWith("text/html")) pages.push({ path, response });
  }
  return pages;
}

const framing = (response: Response) => [
  response.headers.get("x-frame-options"),
  response.headers.get("content-security-policy"),
];

describe("framing", () => {
  it("every HTML page of the emulator (dashboard placeholder, API reference, checkout, mock identity provider) forbids foreign frames", async () => {
    const provider = newProvider();
    const pages = await htmlPages(provider.app, "http://localhost:8102");
    // The walk found the pages it is meant to check: the dashboard placeholder at /, the API reference, checkout and the mock identity provider at least.
    expect(pages.map((p) => p.path)).toEqual(
      expect.arrayContaining([
        "/",
        "/__emulator/api-reference",
        "/__emulator/checkout/x",
        "/__emulator/oauth/authorize/x",
      ]),
    );
    for (const { path, response } of pages) {
      expect([path, response.headers.get("x-frame-options")]).toEqual([path, FRAME_OPTIONS]);
      expect([path, response.headers.get("content-security-policy")]).toEqual([
        path,
        expect.stringContaining(FRAME_ANCESTORS_POLICY),
      ]);
    }
    const mock = createMockOAuthServer(provider, { origin: "http://localhost:8114" });
    const mockPages = await htmlPages(mock.app, "http://localhost:8114");
    expect(mockPages.length).toBeGreaterThan(0);
    for (const { path, response } of mockPages)
      expect([path, ...framing(response)]).toEqual([path, FRAME_OPTIONS, FRAME_ANCESTORS_POLICY]);
  });

  it("leaves the API's answers as the real service sends them, and keeps a page's own policy beside the new one", async () => {
    const provider = newProvider();
    const api = await provider.app.fetch(new Request("http://localhost:8102/api/v1"));
    expect(framing(api)).toEqual([null, null]);
    const reference = await provider.app.fetch(new Request("http://localhost:8102/__emulator/api-reference"));
    expect(reference.headers.get("content-security-policy")).toMatch(/default-src 'none'.*, frame-ancestors 'self'$/);
    const json = forbidFraming(Response.json({ a: 1 }));
    expect(framing(json)).toEqual([null, null]);
    // A fetched answer's headers are immutable: the copy carries them and the same body.
    const fetched = await fetch("data:text/html,<p>x</p>");
    expect(() => fetched.headers.set("x", "y")).toThrow();
    const framed = forbidFraming(fetched);
    expect([...framing(framed), await framed.text()]).toEqual([FRAME_OPTIONS, FRAME_ANCESTORS_POLICY, "<p>x</p>"]);
  });
});
