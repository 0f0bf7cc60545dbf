import { createContext } from "react";
import { clientCachesSymbol, type AppCaches, type StackClientApp } from "@authsim/sdk";
import type { TrustedDomain } from "@authsim/sdk/urls";

/** Where a redirect may go besides the page's own origin (spec §5: redirect URLs must be on trusted domains). */
export interface TrustedRedirects {
  allowLocalhost?: boolean;
  domains?: readonly TrustedDomain[];
}

export interface StackContextValue {
  app: StackClientApp;
  caches: AppCaches;
  trustedRedirects: TrustedRedirects;
  /** Unhandled async errors (spec §8, client behaviour: an alert). */
  onUnhandledError(message: string, error: unknown): void;
}

export const StackContext = createContext<StackContextValue | null>(null);

export function cachesOf(app: StackClientApp): AppCaches {
  return app[clientCachesSymbol]();
}
