import type { Context, Hono, Next } from "hono";
import type { RouterRoute } from "hono/types";

/**
 * Routes of an app built on the first request that reaches them. A provider's control plane, Svix's API and the page
 * at / are some seventy routes, each a handler made for that provider, and most providers (one a test) never receive
 * a request there: registering them was a quarter of a fresh provider's time and much of what its garbage collector
 * then had to copy (issue 30).
 *
 * The app gets one route per path pattern; the first request on any of them builds the inner app (`build`) and every
 * request there is answered by it. A request the inner app has no route for goes on to the app's later routes (the dev
 * server adds one under the control prefix after creating the provider) and then to the app's own not-found answer, and
 * an error thrown by an inner handler reaches the app's own error handler: the same answers as routes of the app itself.
 */
export function mountLazily(app: Hono, paths: readonly string[], build: () => Hono): void {
  let inner: Hono | null = null;
  /** Requests the inner app found no route for (Hono's not-found handler sees the request, not the caller). */
  const unmatched = new WeakSet<Request>();
  const innerApp = (): Hono => {
    if (inner) return inner;
    inner = build();
    inner.notFound((c) => {
      unmatched.add(c.req.raw);
      return c.body(null, 404);
    });
    inner.onError((error) => {
      throw error;
    });
    return inner;
  };
  builders.set(app, [...(builders.get(app) ?? []), innerApp]);
  const handler = async (c: Context, next: Next): Promise<Response | void> => {
    const request = c.req.raw;
    const response = await innerApp().fetch(request, c.env);
    if (!unmatched.has(request)) return response;
    unmatched.delete(request);
    await next();
  };
  for (const path of paths) app.all(path, handler);
}

const builders = new WeakMap<Hono, (() => Hono)[]>();

/** The routes mounted lazily on an app, built now if they were not yet (for walks over every page of the app). */
export function lazyRoutes(app: Hono): RouterRoute[] {
  return (builders.get(app) ?? []).flatMap((innerApp) => innerApp().routes);
}
