import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { lazyRoutes, mountLazily } from "./lazy-routes.ts";

/** An app with lazily mounted routes answers as if they were its own: built once, on the first request there. */
function appWithLazyRoutes() {
  const app = new Hono();
  let builds = 0;
  app.get("/before", (c) => c.text("before"));
  mountLazily(app, ["/", "/ctl/*"], () => {
    builds++;
    const inner = new Hono();
    inner.get("/", (c) => c.text("home"));
    inner.get("/ctl/item/:id", (c) => c.json({ id: c.req.param("id") }));
    inner.post("/ctl/fail", () => {
      throw new RangeError("inner failure");
    });
    return inner;
  });
  // Added after the lazy routes, under their prefix (as the dev server adds one to the control plane).
  app.post("/ctl/later", (c) => c.text("later", 201));
  app.notFound((c) => c.text("app's own 404", 404));
  app.onError((error, c) => c.text(`app's own error: ${error.message}`, 500));
  return { app, builds: () => builds };
}

const answer = async (app: Hono, path: string, method = "GET") => {
  const response = await app.fetch(new Request(`http://x${path}`, { method }));
  return { status: response.status, body: await response.text() };
};

describe("lazily mounted routes", () => {
  it("are built on the first request that reaches them, once", async () => {
    const { app, builds } = appWithLazyRoutes();
    expect(await answer(app, "/before")).toEqual({ status: 200, body: "before" });
    expect(builds()).toBe(0);
    expect(await answer(app, "/ctl/item/a%20b")).toEqual({ status: 200, body: '{"id":"a b"}' });
    expect(await answer(app, "/")).toEqual({ status: 200, body: "home" });
    expect(builds()).toBe(1);
  });

  it("leave what they do not serve to the app's later routes, then to its own not-found answer", async () => {
    const { app } = appWithLazyRoutes();
    expect(await answer(app, "/ctl/later", "POST")).toEqual({ status: 201, body: "later" });
    expect(await answer(app, "/ctl/nothing")).toEqual({ status: 404, body: "app's own 404" });
    expect(await answer(app, "/", "DELETE")).toEqual({ status: 404, body: "app's own 404" });
  });

  it("send their handlers' errors to the app's own error handler", async () => {
    const { app } = appWithLazyRoutes();
    expect(await answer(app, "/ctl/fail", "POST")).toEqual({ status: 500, body: "app's own error: inner failure" });
  });

  it("answer HEAD as their GET without a body, and are listed for walks over the app's pages", async () => {
    const { app } = appWithLazyRoutes();
    const head = await app.fetch(new Request("http://x/ctl/item/1", { method: "HEAD" }));
    expect([head.status, await head.text()]).toEqual([200, ""]);
    expect(lazyRoutes(app).map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /",
      "GET /ctl/item/:id",
      "POST /ctl/fail",
    ]);
  });
});
