import type { CurrentUser } from "@authsim/sdk";
import { useCachedValue } from "./use-cached-value.ts";
import { useStackContext } from "./use-stack-app.ts";

/**
 * The signed-in user's lists and values (sdk-surface.md §21: the React builds add use<Name> for each store property),
 * cached per session like the user (spec §9) and refreshed after writes, so creating a team or a key shows at once.
 * Each loads through the current user at load time, never a stale user object. Signed out, they give the empty value.
 */
type Read<T> = (user: CurrentUser) => Promise<T>;

function useUserValue<T>(name: string, args: readonly unknown[], read: Read<T>, signedOut: T): T {
  const { caches } = useStackContext();
  const cached = caches.cached(
    name,
    args,
    async () => {
      const snapshot = caches.currentUser.getSnapshot();
      const user = snapshot.status === "ok" ? snapshot.value : await snapshot.promise;
      return user ? read(user) : signedOut;
    },
    { signedOutValue: { value: signedOut } },
  );
  return useCachedValue(cached);
}

export type TeamOf = Awaited<ReturnType<CurrentUser["listTeams"]>>[number];
export type ContactChannelOf = Awaited<ReturnType<CurrentUser["listContactChannels"]>>[number];
export type UserApiKeyOf = Awaited<ReturnType<CurrentUser["listApiKeys"]>>[number];
export type ItemOf = Awaited<ReturnType<CurrentUser["getItem"]>>;
export type ActiveSessionOf = Awaited<ReturnType<CurrentUser["getActiveSessions"]>>[number];

/** The teams the signed-in user belongs to (GET /teams?user_id=me). */
export function useTeams(): TeamOf[] {
  return useUserValue("teams", [], (user) => user.listTeams(), []);
}

/** One of the user's teams, or null. */
export function useTeam(teamId: string): TeamOf | null {
  return useUserValue("team", [teamId], (user) => user.getTeam(teamId), null);
}

export function useContactChannels(): ContactChannelOf[] {
  return useUserValue("contactChannels", [], (user) => user.listContactChannels(), []);
}

/** The user's sessions (GET /auth/sessions?user_id=me), the current one marked. */
export function useActiveSessions(): ActiveSessionOf[] {
  return useUserValue("activeSessions", [], (user) => user.getActiveSessions(), []);
}

/** The user's API keys (values shown by their last four characters, spec §3). */
export function useApiKeys(): UserApiKeyOf[] {
  return useUserValue("apiKeys", [], (user) => user.listApiKeys(), []);
}

/** The user's permissions in a team, or project permissions without one (recursive by default, spec §9). */
export function usePermissions(team?: { id: string }): { id: string }[] {
  return useUserValue(
    "permissions",
    [team?.id ?? null],
    (user) => (team ? user.listPermissions(team) : user.listPermissions()),
    [],
  );
}

/** An item of the signed-in user as a customer (spec §3: quantity, nonNegativeQuantity); null when signed out. */
export function useItem(itemId: string): ItemOf | null {
  return useUserValue<ItemOf | null>("item", [itemId], (user) => user.getItem(itemId), null);
}

export type NotificationCategoryOf = Awaited<ReturnType<CurrentUser["listNotificationCategories"]>>[number];
export type OAuthProviderOf = Awaited<ReturnType<CurrentUser["listOAuthProviders"]>>[number];

/** The notification categories and the user's choice for each (GET /emails/notification-preference/me). */
export function useNotificationCategories(): NotificationCategoryOf[] {
  return useUserValue("notificationCategories", [], (user) => user.listNotificationCategories(), []);
}

/** The user's OAuth provider links (GET /oauth-providers?user_id=me): the accounts it signs in or connects with. */
export function useOAuthProviders(): OAuthProviderOf[] {
  return useUserValue("oauthProviders", [], (user) => user.listOAuthProviders(), []);
}
