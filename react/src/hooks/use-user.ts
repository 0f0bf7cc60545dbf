import { use } from "react";
import {
  UserNotSignedInError,
  visibleUser,
  type CurrentUser,
  type GetUserOptions,
  type StackClientApp,
} from "@authsim/sdk";
import { usePageUrl } from "../navigation/page-location.ts";
import { redirectOnce } from "../navigation/redirect-once.ts";
import { withReturnTo } from "../navigation/return-to.ts";
import { useCachedValue } from "./use-cached-value.ts";
import { useStackContext } from "./use-stack-app.ts";

/** useUser options: getUser's (sdk-surface.md §4) without the per-call token store. */
export type UseUserOptions = Pick<GetUserOptions, "or" | "includeRestricted">;
type NonNullOr = { or: "redirect" | "throw" | "anonymous" };

/** A promise that never settles: a component that is leaving the page suspends on it instead of rendering. */
const NEVER: Promise<never> = new Promise<never>(() => {});

/** One anonymous sign-up at a time per app, however many components ask (a render may repeat). */
const signingUpAnonymously = new WeakMap<StackClientApp, Promise<CurrentUser>>();

function signUpAnonymouslyOnce(app: StackClientApp): Promise<CurrentUser> {
  const existing = signingUpAnonymously.get(app);
  if (existing) return existing;
  const flight = app.getUser({ or: "anonymous" }).finally(() => signingUpAnonymously.delete(app));
  signingUpAnonymously.set(app, flight);
  return flight;
}

/**
 * The signed-in user, kept current by the SDK cache (spec §9) and re-rendered on change. With no user (spec §4):
 * "return-null" (default) gives null; "throw" throws UserNotSignedInError; "redirect" sends the browser to sign-in
 * with after_auth_return_to set to this page, and suspends meanwhile; "anonymous" signs up an anonymous user.
 */
export function useUser(options: UseUserOptions & NonNullOr): CurrentUser;
export function useUser(options?: UseUserOptions): CurrentUser | null;
export function useUser(options: UseUserOptions = {}): CurrentUser | null {
  const { app, caches } = useStackContext();
  const page = usePageUrl();
  const user = visibleUser(useCachedValue(caches.currentUser), options);
  if (user) return user;
  switch (options.or) {
    case "throw":
      throw new UserNotSignedInError();
    case "redirect":
      // Started from render on purpose: the page must not show, and a repeated render joins the same redirect.
      redirectOnce(caches, withReturnTo(app.urls.signIn, page.href), page.href).catch((error: unknown) =>
        console.error(error),
      );
      return use(NEVER);
    case "anonymous":
      return use(signUpAnonymouslyOnce(app));
    default:
      return null;
  }
}
