import { useMemo, type ReactNode } from "react";
import type { StackClientApp } from "@authsim/sdk";
import { cachesOf, StackContext, type StackContextValue, type TrustedRedirects } from "./stack-context.ts";

export interface StackProviderProps {
  app: StackClientApp;
  /** Domains a redirect (after_auth_return_to, redirect URLs) may go to besides this page's origin. */
  trustedRedirects?: TrustedRedirects;
  /** How an unhandled async error is shown; defaults to the browser's alert (spec §8). */
  onUnhandledError?: (message: string, error: unknown) => void;
  children?: ReactNode;
}

function defaultUnhandled(message: string, error: unknown): void {
  console.error(error);
  const alertFn = (globalThis as { alert?: (message: string) => void }).alert;
  if (alertFn) alertFn(message);
}

/** Makes a client app (or a server/admin app) available to the hooks and components below it. */
export function StackProvider({ app, trustedRedirects, onUnhandledError, children }: StackProviderProps) {
  const value = useMemo<StackContextValue>(
    () => ({
      app,
      caches: cachesOf(app),
      trustedRedirects: trustedRedirects ?? {},
      onUnhandledError: onUnhandledError ?? defaultUnhandled,
    }),
    [app, trustedRedirects, onUnhandledError],
  );
  return <StackContext.Provider value={value}>{children}</StackContext.Provider>;
}
