import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { createFakeProvider } from "@authsim/fake-provider";
import { recordedInputs } from "../bundles/recorded-inputs.ts";
import { inFrontOf } from "../bundles/serve-bundle.ts";
import { dashboardHandler } from "../dashboard/serve.ts";
import { bundleBannerLines } from "../bundles/dev-server.ts";
import { buildHosted } from "./build.ts";
import { hostedHandler } from "./serve.ts";

/** The hosted pages' Node edge: their paths and config in front of the emulator (beside the dashboard), and a real build. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "authsim-hosted-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const provider = createFakeProvider();
const emulator = (r: Request) => provider.app.fetch(r);
const get = (fetchFn: (r: Request) => Promise<Response>, url: string, method = "GET") =>
  fetchFn(new Request(url.startsWith("http") ? url : `http://127.0.0.1:8102${url}`, { method }));

async function fakeBuild(name: string, title: string): Promise<string> {
  const dist = join(dir, name);
  await mkdir(join(dist, "assets"), { recursive: true });
  await writeFile(join(dist, "index.html"), `<!doctype html><title>${title}</title>`);
  await writeFile(join(dist, "assets", "index-abc.js"), "console.log(1)");
  return dist;
}

describe("serving the hosted pages in front of the emulator", () => {
  it("answers /handler/* and /app with the page, its assets with their type, and leaves / to the dashboard", async () => {
    const served = inFrontOf(
      [
        hostedHandler(await fakeBuild("hosted", "hosted"), emulator),
        dashboardHandler(await fakeBuild("dashboard", "dashboard")),
      ],
      emulator,
    );
    for (const path of ["/handler/sign-in", "/handler/account-settings?x=1", "/handler", "/app"]) {
      const page = await get(served, path);
      expect([path, page.status, page.headers.get("cache-control")]).toEqual([path, 200, "no-store"]);
      expect(await page.text()).toContain("<title>hosted</title>");
    }
    const asset = await get(served, "/__emulator/hosted/assets/index-abc.js");
    expect([asset.status, asset.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect((await get(served, "/__emulator/hosted/assets/missing.js")).status).toBe(404);
    expect((await get(served, "/__emulator/hosted/assets/..%2f..%2fdashboard%2findex.html")).status).toBe(404);
    expect(await (await get(served, "/")).text()).toContain("<title>dashboard</title>");
    // Neighbouring paths stay the emulator's: /application is no page, and /api/v1 answers as ever.
    expect((await get(served, "/application")).status).toBe(404);
    expect((await get(served, "/handlers/sign-in")).status).toBe(404);
    const api = await get(served, "/api/v1/projects/current");
    expect(api.headers.get("x-stack-known-error")).toBe("ACCESS_TYPE_REQUIRED");
    // Forms post to the API, never to the pages: a POST to a page path is the emulator's.
    expect((await get(served, "/handler/sign-in", "POST")).status).toBe(404);
  });

  it("serves the dev project's config with the origin the browser used, so pages, cookies and API share it", async () => {
    const served = inFrontOf([hostedHandler(join(dir, "nothing-here"), emulator)], emulator);
    for (const origin of ["http://127.0.0.1:8102", "http://localhost:8102"]) {
      const config = await get(served, `${origin}/__emulator/hosted/config.json`);
      expect(config.headers.get("cache-control")).toBe("no-store");
      expect(await config.json()).toEqual({
        baseUrl: origin,
        projectId: dev.id,
        projectName: dev.display_name,
        publishableClientKey: dev.keys.publishable_client_key,
        originTrusted: true,
        allowLocalhost: true,
        project: expect.objectContaining({ id: dev.id, display_name: dev.display_name }),
      });
    }
  });

  it("answers a page with a 503 that says why when there is no build", async () => {
    const served = inFrontOf([hostedHandler(join(dir, "nothing-here"), emulator)], emulator);
    const page = await get(served, "/handler/sign-in");
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("The hosted pages are not built");
  });

  it("forbids foreign frames on every page it serves: hosted pages, the dashboard, an unknown project's page, the unbuilt page", async () => {
    const built = inFrontOf(
      [
        hostedHandler(await fakeBuild("framed-hosted", "hosted"), emulator),
        dashboardHandler(await fakeBuild("framed-dashboard", "dashboard")),
      ],
      emulator,
    );
    const unbuilt = inFrontOf([hostedHandler(join(dir, "nothing-here"), emulator)], emulator);
    const pages: [string, Response][] = [
      ...(await Promise.all(
        [
          "/handler/sign-in",
          "/handler/account-settings",
          "/app",
          "/",
          "/__emulator/ui/",
          "/handler/sign-in?project_id=no-such-project",
        ].map(async (path): Promise<[string, Response]> => [path, await get(built, path)]),
      )),
      ["unbuilt /handler/sign-in", await get(unbuilt, "/handler/sign-in")],
    ];
    for (const [path, page] of pages) {
      expect([path, page.headers.get("content-type")]).toEqual([path, expect.stringMatching(/^text\/html/)]);
      expect([path, page.headers.get("x-frame-options"), page.headers.get("content-security-policy")]).toEqual([
        path,
        "SAMEORIGIN",
        "frame-ancestors 'self'",
      ]);
    }
  });

  it("names the hosted sign-in and the API reference in the banner, and the localhost address passkeys need", () => {
    const notes = { dashboard: "up to date", hosted: "built in 900 ms" };
    expect(bundleBannerLines("http://127.0.0.1:8102", notes)).toEqual([
      "Dashboard: http://127.0.0.1:8102/ (up to date)",
      "Hosted sign-in: http://127.0.0.1:8102/handler/sign-in (dev project; ?project_id=… for another; home page http://127.0.0.1:8102/app; built in 900 ms; for passkeys open http://localhost:8102/handler/sign-in)",
      "  and per project at http://{projectId}.localhost:8102/handler/sign-in (the published kit's hosted mode: NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE below)",
      "API reference: http://127.0.0.1:8102/__emulator/api-reference (OpenAPI document at http://127.0.0.1:8102/__emulator/openapi.json)",
    ]);
    expect(bundleBannerLines("http://localhost:8102", { ...notes, dashboard: "not built (boom)" })).toEqual([
      "Dashboard: http://localhost:8102/ (not built (boom); / shows a placeholder)",
      "Hosted sign-in: http://localhost:8102/handler/sign-in (dev project; ?project_id=… for another; home page http://localhost:8102/app; built in 900 ms)",
      "  and per project at http://{projectId}.localhost:8102/handler/sign-in (the published kit's hosted mode: NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE below)",
      "API reference: http://localhost:8102/__emulator/api-reference (OpenAPI document at http://localhost:8102/__emulator/openapi.json)",
    ]);
  });
});

describe("building the hosted pages", () => {
  it("builds a self-contained bundle under /__emulator/hosted/ (no CDN, no external URL) holding the handler pages", async () => {
    const out = join(dir, "built");
    await buildHosted(out);
    const index = await readFile(join(out, "index.html"), "utf8");
    expect(index).toMatch(/src="\/__emulator\/hosted\/assets\/index-[\w-]+\.js"/);
    const assets = await readdir(join(out, "assets"));
    const texts = await Promise.all(assets.map((a) => readFile(join(out, "assets", a), "utf8")));
    for (const text of [index, ...texts]) {
      expect(text).not.toMatch(/<script[^>]+src="https?:|<link[^>]+href="https?:|@import\s+url\(["']?https?:/);
    }
    // @authsim/react's pages are in it (their headings), not fetched from anywhere.
    expect(texts.join("\n")).toContain("Create an account");
    // The build recorded the React and SDK sources it compiled, so editing one of them makes the next start rebuild.
    const inputs = (await recordedInputs(out))!.map((f) => f.split(sep).join("/"));
    expect(inputs.some((f) => f.endsWith("/react/src/handler/handler.tsx"))).toBe(true);
    expect(inputs.some((f) => f.endsWith("/sdk/src/client/client-app.ts"))).toBe(true);
  });
});
