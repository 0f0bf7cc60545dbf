import { MESSAGE_MATCHER_IS_ALREADY_BUILT, type Result, type Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

/**
 * Hono's router for every provider's app: each provider mounts the same routes in the same order with handlers of its
 * own, and building the matcher from some 700 routes (on the first request) was most of what a fresh provider's first
 * request cost (issue 30: 8 of 15 s of CPU in a test's worth of work). So the matcher is built once per process for
 * each list of (method, path) and answers route numbers; each app maps them to its own handlers. An app whose routes
 * differ (the dev server's request guard adds one) gets a matcher of its own list, built once as well.
 */
const matchers = new Map<string, Router<number>>();
/** Lists of routes are few (a provider with or without its guard); past this, something builds apps in a loop. */
const MAX_MATCHERS = 32;

function matcherFor(routes: readonly (readonly [string, string, unknown])[]): Router<number> {
  const key = routes.map(([method, path]) => `${method} ${path}`).join("\n");
  let matcher = matchers.get(key);
  if (!matcher) {
    // Hono's own default: the RegExp router, or the trie where a path is beyond it.
    matcher = new SmartRouter<number>({ routers: [new RegExpRouter(), new TrieRouter()] });
    routes.forEach(([method, path], i) => matcher!.add(method, path, i));
    if (matchers.size >= MAX_MATCHERS) matchers.delete(matchers.keys().next().value!);
    matchers.set(key, matcher);
  }
  return matcher;
}

export class SharedRouter<T> implements Router<T> {
  name = "SharedRouter";
  readonly #routes: [string, string, T][] = [];
  #matcher: Router<number> | null = null;
  /** This app's handlers for a matched list of route numbers (the RegExp router answers the same list each time). */
  readonly #handlers = new WeakMap<object, unknown[]>();

  add(method: string, path: string, handler: T): void {
    if (this.#matcher) throw new Error(MESSAGE_MATCHER_IS_ALREADY_BUILT);
    this.#routes.push([method, path, handler]);
  }

  match(method: string, path: string): Result<T> {
    this.#matcher ??= matcherFor(this.#routes);
    const [found, stash] = this.#matcher.match(method, path);
    let mine = this.#handlers.get(found);
    if (!mine) {
      mine = found.map(([index, params]) => [this.#routes[index]![2], params]);
      this.#handlers.set(found, mine);
    }
    return (stash === undefined ? [mine] : [mine, stash]) as Result<T>;
  }
}
