import type { AccessType } from "../contract/headers.ts";
import type { Clock, Sleep } from "../runtime/clock.ts";
import type { RandomSource } from "../runtime/ids.ts";
import type { AdminSession } from "../session/admin-session.ts";
import type { CookieDocument } from "../session/cookie-store.ts";
import type { TokenStoreInit } from "../session/resolve-store.ts";
import type { FetchLike } from "../transport/transport.ts";
import type { RedirectMethod } from "./redirect.ts";
import type { HandlerUrlOptions } from "./urls.ts";
import type { BrowserEnvironment, WebAuthnAdapter } from "./browser-interfaces.ts";

/** Constructor options of sdk-surface.md §2, plus the injectable platform pieces (design rule 5). */
export interface StackClientAppOptions {
  /** Falls back to NEXT_PUBLIC_STACK_PROJECT_ID, then STACK_PROJECT_ID. */
  projectId?: string;
  publishableClientKey?: string;
  /** Defaults to the hosted API; a trailing slash is removed. */
  baseUrl?: string;
  tokenStore: TokenStoreInit;
  extraRequestHeaders?: Record<string, string>;
  urls?: HandlerUrlOptions;
  redirectMethod?: RedirectMethod;
  fetch?: FetchLike;
  clock?: Clock;
  sleep?: Sleep;
  random?: RandomSource;
  isOnline?: () => boolean;
  /** The document of the "cookie" store (defaults to the global one). */
  document?: CookieDocument;
  /**
   * The browser pieces of OAuth, MFA and passkeys (page URL, history, cookies, session storage, warnings and alerts),
   * each defaulting to the global one; inject them to run those flows outside a browser (browser-env.ts).
   */
  browser?: Partial<BrowserEnvironment>;
  /** WebAuthn ceremonies; defaults to @simplewebauthn/browser (passkeys.ts). Inject a software authenticator in Node. */
  webAuthn?: WebAuthnAdapter;
  /**
   * The app's identity in its JSON form (app-json.ts; spec §5): set by fromClientJson, otherwise drawn on the first
   * toClientJson. One app per identifier in a process: a second app with the same one is refused.
   */
  uniqueIdentifier?: string;
}

/** What a subclass adds: its access type and credentials (server key, admin key or project-owner session). */
export interface AppCredentials {
  accessType: AccessType;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  adminSession?: AdminSession | null;
}

export const DEFAULT_BASE_URL = "https://api.stack-auth.com";

/** Environment fallbacks (sdk-surface.md §2); absent outside Node-like runtimes. */
export function fromEnv(...names: string[]): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  for (const name of names) {
    const value = env?.[name];
    if (value) return value;
  }
  return undefined;
}
