import { createContext, useContext } from "react";

/**
 * The page URL the handler pages read (query parameters such as code, after_auth_return_to). A router may provide it;
 * otherwise it is the browser's location.
 */
export const PageLocationContext = createContext<string | null>(null);

const FALLBACK_ORIGIN = "http://localhost/";

export function browserHref(): string | null {
  return (globalThis as { location?: { href?: string } }).location?.href ?? null;
}

export function usePageUrl(): URL {
  const given = useContext(PageLocationContext);
  const base = browserHref() ?? FALLBACK_ORIGIN;
  return new URL(given ?? base, base);
}
