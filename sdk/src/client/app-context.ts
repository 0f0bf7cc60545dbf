import { realSleep, systemClock, type Clock } from "../runtime/clock.ts";
import type { AdminSession } from "../session/admin-session.ts";
import { resolveTokenStore, type TokenStoreInit } from "../session/resolve-store.ts";
import { Session, type Refresher } from "../session/session.ts";
import { createRefresher } from "../session/token-endpoint.ts";
import { createTransport, type Transport } from "../transport/transport.ts";
import { DEFAULT_BASE_URL, fromEnv, type AppCredentials, type StackClientAppOptions } from "./app-options.ts";
import { createRedirector, type Redirector } from "./redirect.ts";
import { resolveHandlerUrls, type ResolvedHandlerUrls } from "./urls.ts";

/** Everything an area module needs from its app: one object, so areas stay plain functions. */
export interface AppContext {
  readonly projectId: string;
  /** The options the app was built with (apps it makes for owned projects reuse its base URL, fetch and clock). */
  readonly appOptions: StackClientAppOptions;
  readonly publishableClientKey: string | undefined;
  readonly transport: Transport;
  readonly clock: Clock;
  readonly urls: ResolvedHandlerUrls;
  readonly redirector: Redirector;
  readonly adminSession: AdminSession | null;
  /** The session for a per-call token store, else the app's own; null when there is neither. */
  session(tokenStore?: TokenStoreInit): Session | null;
  /** As session(), but a clear error when there is no token store at all. */
  requireSession(tokenStore: TokenStoreInit | undefined, purpose: string): Session;
}

export function createAppContext(options: StackClientAppOptions, credentials: AppCredentials): AppContext {
  const projectId = options.projectId ?? fromEnv("NEXT_PUBLIC_STACK_PROJECT_ID", "STACK_PROJECT_ID");
  if (!projectId) throw new Error("No projectId: pass projectId to the app constructor (or set STACK_PROJECT_ID).");
  const publishableClientKey =
    options.publishableClientKey ?? fromEnv("NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY", "STACK_PUBLISHABLE_CLIENT_KEY");
  const baseUrl = options.baseUrl ?? fromEnv("NEXT_PUBLIC_STACK_API_URL", "STACK_API_URL") ?? DEFAULT_BASE_URL;
  const clock = options.clock ?? systemClock;
  const sleep = options.sleep ?? realSleep;

  const transport = createTransport({
    baseUrl,
    projectId,
    accessType: credentials.accessType,
    publishableClientKey,
    secretServerKey: credentials.secretServerKey,
    superSecretAdminKey: credentials.superSecretAdminKey,
    adminSession: credentials.adminSession ?? null,
    extraRequestHeaders: options.extraRequestHeaders,
    fetch: options.fetch,
    clock,
    sleep,
    random: options.random,
    isOnline: options.isOnline,
  });
  const adminSession = credentials.adminSession ?? null;
  // An app authenticated by a project-owner session must not run the user refresh grant (spec §5).
  const refresher: Refresher = adminSession
    ? async () => adminSession.refresh()
    : createRefresher(transport, publishableClientKey);
  const ownStore = resolveTokenStore(options.tokenStore, projectId, options.document);
  // One Session for the app's own store, so concurrent calls share its single-flight refresh.
  const ownSession = ownStore ? new Session(ownStore, refresher, clock) : null;

  function session(tokenStore?: TokenStoreInit): Session | null {
    if (tokenStore === undefined) return ownSession;
    const store = resolveTokenStore(tokenStore, projectId!, options.document);
    return store ? new Session(store, refresher, clock) : null;
  }

  return {
    projectId,
    appOptions: options,
    publishableClientKey,
    transport,
    clock,
    urls: resolveHandlerUrls(options.urls),
    redirector: createRedirector(options.redirectMethod, sleep),
    adminSession,
    session,
    requireSession(tokenStore, purpose) {
      const s = session(tokenStore);
      if (!s) {
        throw new Error(
          `Cannot ${purpose} without a token store: set the tokenStore option of the app (e.g. "memory" or "cookie"), or pass tokenStore to this call.`,
        );
      }
      return s;
    },
  };
}
