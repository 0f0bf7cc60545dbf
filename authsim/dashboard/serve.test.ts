import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeProvider } from "@authsim/fake-provider";
import { buildDashboard } from "./build.ts";
import { withDashboard } from "./serve.ts";

/** The dashboard's Node edge: serving the files in front of the emulator, and a real build (freshness: bundles/). */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "authsim-dashboard-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("serving a built dashboard in front of the emulator", () => {
  const provider = createFakeProvider();
  const get = (fetchFn: (r: Request) => Promise<Response>, path: string, method = "GET") =>
    fetchFn(new Request(`http://127.0.0.1${path}`, { method }));

  it("answers / and /__emulator/ui/* with the page, assets with their type, and everything else from the emulator", async () => {
    const dist = join(dir, "dist");
    await mkdir(join(dist, "assets"), { recursive: true });
    await writeFile(join(dist, "index.html"), "<!doctype html><title>dashboard</title>");
    await writeFile(join(dist, "assets", "index-abc.js"), "console.log(1)");
    const served = withDashboard(dist, (r: Request) => provider.app.fetch(r));
    for (const path of ["/", "/__emulator/ui", "/__emulator/ui/", "/__emulator/ui/anything"]) {
      const page = await get(served, path);
      expect([path, page.status, page.headers.get("cache-control")]).toEqual([path, 200, "no-store"]);
      expect(await page.text()).toContain("<title>dashboard</title>");
    }
    const asset = await get(served, "/__emulator/ui/assets/index-abc.js");
    expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect((await get(served, "/__emulator/ui/assets/missing.js")).status).toBe(404);
    // Paths that climb out of the build never read other files.
    const climbing = await get(served, "/__emulator/ui/assets/..%2f..%2fserve.test.ts");
    expect([climbing.status, await climbing.text()]).toEqual([404, "Not found"]);
    expect((await get(served, "/health")).status).toBe(200);
    expect((await get(served, "/__emulator/clock")).headers.get("content-type")).toContain("application/json");
    // Only GET and HEAD are the dashboard's: a POST to / is the emulator's (its plain-text 404).
    const posted = await get(served, "/", "POST");
    expect([posted.status, posted.headers.get("content-type")]).toEqual([404, "text/plain; charset=utf-8"]);
  });

  it("falls back to the emulator's placeholder page when there is no build", async () => {
    const served = withDashboard(join(dir, "nothing-here"), (r: Request) => provider.app.fetch(r));
    const page = await get(served, "/");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("run <code>npm start</code>");
    expect(await (await provider.fetch("http://x/__emulator/ui/")).text()).toContain("authsim emulator");
  });
});

describe("building the dashboard", () => {
  it("builds a self-contained bundle under /__emulator/ui/ (no CDN, no external URL)", async () => {
    const out = join(dir, "built");
    await buildDashboard(out);
    const index = await readFile(join(out, "index.html"), "utf8");
    expect(index).toMatch(/src="\/__emulator\/ui\/assets\/index-[\w-]+\.js"/);
    const assets = await readdir(join(out, "assets"));
    expect(assets.some((a) => a.endsWith(".css"))).toBe(true);
    for (const name of [index, ...(await Promise.all(assets.map((a) => readFile(join(out, "assets", a), "utf8"))))]) {
      expect(name).not.toMatch(/<script[^>]+src="https?:|<link[^>]+href="https?:|@import\s+url\(["']?https?:/);
    }
  });
});
