import type { RecordedCall, Responder } from "./fake-fetch.ts";

/** A tiny method+path router over the fake fetch, for app tests. Unrouted calls fail loudly. */
export type Route = (call: RecordedCall) => Response | Promise<Response>;

export function router(routes: Record<string, Route>): Responder {
  return (call) => {
    const url = new URL(call.url);
    const key = `${call.method} ${url.pathname.replace(/^\/api\/v1/, "")}`;
    const route = routes[key];
    if (!route) throw new Error(`No test route for ${key}`);
    return route(call);
  };
}
