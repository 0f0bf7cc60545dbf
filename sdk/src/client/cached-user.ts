import { clientUser } from "../contract/areas/users.ts";
import type { Timers } from "../cache/timers.ts";
import type { AppContext } from "./app-context.ts";
import type { ChangeFeed } from "./change-feed.ts";
import { createClientCaches, type CachedValue, type ClientCaches } from "./client-caches.ts";
import { currentUserFromJson, type CurrentUser } from "./current-user.ts";
import { fetchMe, type GetUserOptions } from "./get-user.ts";
import { getClientProject, type Project } from "./projects.ts";

/** What a client app hands UI bindings: its caches, with the current user and the project ready to read. */
export interface AppCaches extends ClientCaches {
  readonly currentUser: CachedValue<CurrentUser | null>;
  readonly project: CachedValue<Project>;
}

export function createAppCaches(ctx: AppContext, changes: ChangeFeed, timers?: Timers): AppCaches {
  const caches = createClientCaches(ctx, changes, timers);
  return { ...caches, currentUser: cachedCurrentUser(ctx, caches), project: cachedProject(ctx, caches) };
}

/**
 * The two values every UI needs, cached per spec §9: the signed-in user as GET /users/me returns it (anonymous and
 * restricted users included; `visibleUser` applies the getUser rules of spec §4 on top) and the project.
 */
export function cachedCurrentUser(ctx: AppContext, caches: ClientCaches): CachedValue<CurrentUser | null> {
  return caches.cached(
    "currentUser",
    [],
    async (key) => {
      const session = ctx.session();
      // The key's tokens are gone (signed out or replaced meanwhile): there is no user of that session to read.
      if (!session || caches.sessionKey() !== key) return null;
      const json = await fetchMe(ctx, session, clientUser);
      return json ? currentUserFromJson(ctx, session, json) : null;
    },
    { signedOutValue: { value: null } },
  );
}

export function cachedProject(ctx: AppContext, caches: ClientCaches): CachedValue<Project> {
  return caches.cached("project", [], () => getClientProject(ctx), { perSession: false });
}

/**
 * Spec §4 on a cached user: anonymous users count as signed out unless `or` is "anonymous" (or the deprecated
 * "anonymous-if-exists"), restricted users unless includeRestricted. What "signed out" then means (`or`) is the
 * caller's: a hook redirects, throws or signs up an anonymous user.
 */
export function visibleUser(
  user: CurrentUser | null,
  options: Pick<GetUserOptions, "or" | "includeRestricted"> = {},
): CurrentUser | null {
  if (!user) return null;
  const anonymousOk = options.or === "anonymous" || options.or === "anonymous-if-exists[deprecated]";
  if (user.isAnonymous) return anonymousOk ? user : null;
  return !user.isRestricted || options.includeRestricted === true || anonymousOk ? user : null;
}
