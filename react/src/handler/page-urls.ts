import type { StackClientApp } from "@authsim/sdk";

/** Handler page segments (spec §2, sdk-surface.md §5) under the app's handler base path (default /handler). */
export const pageSegments = {
  signIn: "sign-in",
  signUp: "sign-up",
  signOut: "sign-out",
  forgotPassword: "forgot-password",
  passwordReset: "password-reset",
  emailVerification: "email-verification",
  magicLinkCallback: "magic-link-callback",
  accountSettings: "account-settings",
  error: "error",
  oauthCallback: "oauth-callback",
  mfa: "mfa",
  teamInvitation: "team-invitation",
  cliAuthConfirm: "cli-auth-confirm",
} as const;

export type PageKey = keyof typeof pageSegments;

/** The app's URL for a page: its own `urls` entry when the SDK resolves that key, else handler base + segment. */
export function pageUrl(app: StackClientApp, key: PageKey): string {
  const resolved = (app.urls as Partial<Record<string, string>>)[key];
  return resolved ?? `${app.urls.handler}/${pageSegments[key]}`;
}

/** The page a path names under the handler base, or null (not a handler path, or an unknown page). */
export function pageForPath(app: StackClientApp, pathname: string): PageKey | "unknown" | null {
  const base = app.urls.handler.replace(/\/+$/, "");
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return null;
  const segment = pathname.slice(base.length).replace(/^\/+|\/+$/g, "");
  for (const [key, value] of Object.entries(pageSegments)) if (value === segment) return key as PageKey;
  return "unknown";
}
