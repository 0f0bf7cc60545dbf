import { AsyncCache, type CacheSnapshot } from "../cache/async-cache.ts";
import { realTimers, type Timers } from "../cache/timers.ts";
import { constants } from "../contract/headers.ts";
import type { AppContext } from "./app-context.ts";
import type { ChangeFeed } from "./change-feed.ts";

/**
 * The per-app caches of spec §9 that UI bindings read (@authsim/react's hooks go through useSyncExternalStore over
 * them). Per-user values are keyed by the session, so a sign-in, a sign-out or another tab's cookie change shows as a
 * new key: subscribers move to it and see it load. The token store is polled every 100 ms while anyone watches
 * (spec §9: cookie changes are polled), and every successful write through the app refreshes what is watched.
 */
export interface CachedValue<T> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): CacheSnapshot<T>;
  /** Loads again (rate limited); the old value stays visible meanwhile. */
  refresh(): Promise<T>;
  /**
   * Holds `value` for the current key when nothing is held yet, without a request: a value the page already has (the
   * project a server rendered it with) is there on the first render instead of a loading state. Refreshes as usual.
   */
  seed(value: T): void;
}

export interface CachedValueOptions<T> {
  /** Per session (default): the key changes with the tokens. False for project-wide values. */
  perSession?: boolean;
  /** The value when no one is signed in, without a request (e.g. null for the current user). */
  signedOutValue?: { value: T };
}

export interface ClientCaches {
  /** A value cached by name and arguments; the first `load` given for them is the one used. */
  cached<T>(
    name: string,
    args: readonly unknown[],
    load: (sessionKey: string) => Promise<T>,
    options?: CachedValueOptions<T>,
  ): CachedValue<T>;
  /** "none" when the app's session holds no token, "no-store" without a token store; otherwise an opaque key. */
  sessionKey(): string;
  /** Tells the caches that something changed outside the app's transport. */
  refreshAll(): void;
  /** Navigates as the app's redirectMethod says (for "window", with the redirect pause of spec §2). */
  redirect(url: string): Promise<void>;
  canRedirect(): boolean;
  /** The URL made absolute against the page, when there is a page. */
  absoluteUrl(url: string): string | null;
  readonly timers: Timers;
}

export const clientCachesSymbol: unique symbol = Symbol.for("@authsim/sdk client caches");

export const SIGNED_OUT_KEY = "none";
export const NO_STORE_KEY = "no-store";

export function createClientCaches(ctx: AppContext, changes: ChangeFeed, timers: Timers = realTimers): ClientCaches {
  const views = new Map<string, { view: CachedValue<unknown>; cache: AsyncCache<unknown> }>();
  const tokenListeners = new Set<() => void>();

  function sessionKey(): string {
    const session = ctx.session();
    if (!session) return NO_STORE_KEY;
    const { accessToken, refreshToken } = session.getTokens();
    // The refresh token names the session; an access token alone (no refresh token) names a session that cannot renew.
    if (refreshToken) return `r:${refreshToken}`;
    if (accessToken) return `a:${accessToken}`;
    return SIGNED_OUT_KEY;
  }

  let lastKey = sessionKey();
  let pollTimer: unknown = null;
  const checkTokens = () => {
    const key = sessionKey();
    if (key === lastKey) return;
    lastKey = key;
    for (const listener of [...tokenListeners]) listener();
  };
  const poll = () => {
    pollTimer = null;
    checkTokens();
    if (tokenListeners.size > 0) pollTimer = timers.setTimeout(poll, constants.cookiePollMillis);
  };
  function watchTokens(listener: () => void): () => void {
    tokenListeners.add(listener);
    if (pollTimer === null) pollTimer = timers.setTimeout(poll, constants.cookiePollMillis);
    return () => {
      tokenListeners.delete(listener);
      if (tokenListeners.size === 0 && pollTimer !== null) {
        timers.clearTimeout(pollTimer);
        pollTimer = null;
      }
    };
  }

  function refreshAll(): void {
    // Tokens first: a sign-in or sign-out moves subscribers to their new key before anything is reloaded.
    checkTokens();
    for (const { cache } of views.values()) cache.refreshAll();
  }
  // Deferred one tick: a sign-in stores its tokens just after its request lands.
  changes.subscribe(() => void timers.setTimeout(refreshAll, 0));

  function cached<T>(
    name: string,
    args: readonly unknown[],
    load: (key: string) => Promise<T>,
    options: CachedValueOptions<T> = {},
  ): CachedValue<T> {
    const id = `${name}(${JSON.stringify(args)})`;
    const existing = views.get(id);
    if (existing) return existing.view as CachedValue<T>;
    const perSession = options.perSession ?? true;
    const keyNow = () => (perSession ? sessionKey() : "project");
    const cache = new AsyncCache<T>(load, { clock: ctx.clock, timers });
    const signedOut = options.signedOutValue;
    const signedOutSnapshot: CacheSnapshot<T> | null = signedOut
      ? { status: "ok", value: signedOut.value, promise: Promise.resolve(signedOut.value) }
      : null;
    const isSignedOut = (key: string) => key === SIGNED_OUT_KEY || key === NO_STORE_KEY;

    const view: CachedValue<T> = {
      getSnapshot() {
        const key = keyNow();
        return signedOutSnapshot && isSignedOut(key) ? signedOutSnapshot : cache.snapshot(key);
      },
      subscribe(listener) {
        let key = keyNow();
        const hold = (k: string) => (signedOutSnapshot && isSignedOut(k) ? () => {} : cache.subscribe(k, listener));
        let release = hold(key);
        const stopWatching = perSession
          ? watchTokens(() => {
              const next = keyNow();
              if (next !== key) {
                release();
                key = next;
                release = hold(key);
              }
              listener();
            })
          : () => {};
        return () => {
          release();
          stopWatching();
        };
      },
      refresh() {
        const key = keyNow();
        return signedOut && isSignedOut(key) ? Promise.resolve(signedOut.value) : cache.refresh(key);
      },
      seed(value) {
        const key = keyNow();
        if (!(signedOutSnapshot && isSignedOut(key)) && !cache.has(key)) cache.set(key, value);
      },
    };
    views.set(id, { view: view as CachedValue<unknown>, cache: cache as AsyncCache<unknown> });
    return view;
  }

  return {
    cached,
    sessionKey,
    refreshAll,
    redirect: (url) => ctx.redirector.redirectTo(url),
    canRedirect: () => ctx.redirector.canRedirect(),
    absoluteUrl: (url) => ctx.redirector.absolute(url),
    timers,
  };
}
