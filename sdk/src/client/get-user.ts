import type { z } from "zod";
import { isKnownErrorOfType } from "../errors/known-error.ts";
import type { TokenStoreInit } from "../session/resolve-store.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { signUpAnonymously } from "./auth.ts";
import { asClient } from "../transport/operation-call.ts";

/** getUser options (sdk-surface.md §4) and the "who is signed in" rules of spec §4. */
export interface GetUserOptions {
  or?: "return-null" | "redirect" | "throw" | "anonymous" | "anonymous-if-exists[deprecated]";
  includeRestricted?: boolean;
  tokenStore?: TokenStoreInit;
}
export type NonNullGetUserOptions = GetUserOptions & { or: "redirect" | "throw" | "anonymous" };

export class UserNotSignedInError extends Error {
  override readonly name = "UserNotSignedInError";
  constructor() {
    super('No user is signed in, and getUser was called with { or: "throw" }.');
  }
}

interface UserFlags {
  is_anonymous: boolean;
  is_restricted: boolean;
}

/**
 * GET /users/me through the session; null when there is no user. CANNOT_GET_OWN_USER_WITHOUT_USER means "no user"
 * (protocol.md §3.1), and without any usable access token there is nobody to ask about.
 */
export async function fetchMe<S extends z.ZodType<UserFlags>>(
  ctx: AppContext,
  session: Session,
  schema: S,
): Promise<z.output<S> | null> {
  if (!(await session.getAccessToken())) return null;
  try {
    return await asClient.jsonAs(ctx.transport, "getMe", { session, allowAnonymousUser: true }, schema);
  } catch (e) {
    if (isKnownErrorOfType(e, "CANNOT_GET_OWN_USER_WITHOUT_USER")) return null;
    throw e;
  }
}

/**
 * The current user per spec §4: anonymous users count as not signed in unless anonymous mode is asked for, restricted
 * ones unless includeRestricted; then `or` decides what "no user" means.
 */
export async function resolveCurrentUser<J extends UserFlags, U>(
  ctx: AppContext,
  options: GetUserOptions,
  fetchJson: (session: Session) => Promise<J | null>,
  build: (session: Session, json: J) => U,
): Promise<U | null> {
  const or = options.or ?? "return-null";
  if (or === "anonymous" && options.includeRestricted === false) {
    throw new Error(
      'getUser: includeRestricted cannot be false when or is "anonymous" (anonymous users are restricted).',
    );
  }
  const anonymousOk = or === "anonymous" || or === "anonymous-if-exists[deprecated]";
  const restrictedOk = options.includeRestricted === true || anonymousOk;
  const session = ctx.requireSession(options.tokenStore, "get the current user");

  const json = await fetchJson(session);
  if (json && (json.is_anonymous ? anonymousOk : !json.is_restricted || restrictedOk)) return build(session, json);

  switch (or) {
    case "anonymous": {
      await signUpAnonymously(ctx, session);
      const anonymous = await fetchJson(session);
      if (!anonymous) throw new Error("The anonymous sign-up succeeded but no user could be read with its tokens.");
      return build(session, anonymous);
    }
    case "redirect":
      await ctx.redirector.redirectTo(ctx.urls.signIn);
      throw new Error(`No user is signed in; redirected to ${ctx.urls.signIn}.`);
    case "throw":
      throw new UserNotSignedInError();
    default:
      return null;
  }
}
