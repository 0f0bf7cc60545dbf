import { useCallback } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { usePageUrl } from "../navigation/page-location.ts";
import { readReturnTo } from "../navigation/return-to.ts";
import { useRedirect } from "../navigation/use-redirect.ts";

/**
 * The redirect after signing in or up (spec §2): to after_auth_return_to when the page carries one (and it is
 * trusted), else to the app's afterSignIn / afterSignUp URL (both default to home).
 */
export function useAfterAuthRedirect(kind: "afterSignIn" | "afterSignUp"): {
  returnTo: string | null;
  redirect(): Promise<void>;
} {
  const app = useStackApp();
  const returnTo = readReturnTo(usePageUrl());
  const redirect = useRedirect();
  const target = returnTo ?? app.urls[kind];
  return { returnTo, redirect: useCallback(() => redirect(target), [redirect, target]) };
}
