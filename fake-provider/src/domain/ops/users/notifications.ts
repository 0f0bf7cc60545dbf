import { knownError } from "../../errors/known-error.ts";
import type { UserRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { refusal } from "../../errors/refusals.ts";
import type { Auth } from "../../auth/caller.ts";
import { requireUser } from "./user-lookup.ts";

/**
 * Notification categories (spec §3 "Notification category"; protocol.md §5.11). A fixed set, as upstream has it: the
 * ids are upstream's, so code written against the real service finds the same categories here.
 */
export interface NotificationCategory {
  id: string;
  name: string;
  defaultEnabled: boolean;
  canDisable: boolean;
}

export const notificationCategories: readonly NotificationCategory[] = [
  { id: "7bb82d33-2f54-4a3d-9d23-82739e0d66ef", name: "Transactional", defaultEnabled: true, canDisable: false },
  { id: "4f6f8873-3d04-46bd-8bef-18338b1a1b4c", name: "Marketing", defaultEnabled: true, canDisable: true },
];

export interface NotificationPreference {
  category: NotificationCategory;
  enabled: boolean;
}

const prefKey = (userId: string, categoryId: string) => `${userId}:${categoryId}`;

export function notificationPreferencesOf(ctx: OpContext, user: UserRecord): NotificationPreference[] {
  return notificationCategories.map((category) => ({
    category,
    enabled: ctx.tables.notificationPreferences.get(prefKey(user.id, category.id))?.enabled ?? category.defaultEnabled,
  }));
}

/** The category (plain 404 otherwise); the real update looks for it before it looks at the caller or the user. */
export function requireCategory(categoryId: string): NotificationCategory {
  const category = notificationCategories.find((c) => c.id === categoryId);
  if (!category) throw refusal("notificationCategoryFound");
  return category;
}

/**
 * Whose preferences a request names, as the real service checks it: `me` without a user is refused when the path is
 * read (CANNOT_GET_OWN_USER_WITHOUT_USER), a client naming an id needs a user (USER_AUTHENTICATION_REQUIRED) and may
 * name only itself (plain 403 worded by `verb`), then the user must exist.
 */
export function preferencesUser(auth: Auth, ctx: OpContext, userIdOrMe: string, verb: "view" | "manage"): UserRecord {
  if (userIdOrMe === "me" && !auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
  if (auth.type === "client" && !auth.user) throw knownError("USER_AUTHENTICATION_REQUIRED");
  const userId = userIdOrMe === "me" ? auth.user!.id : userIdOrMe;
  if (auth.type === "client" && userId !== auth.user!.id) throw refusal("ownNotificationPreferencesOnly", verb);
  return requireUser(ctx, auth.project.id, userId);
}

/**
 * PATCH …/{category_id} {enabled}. A category that cannot be disabled (Transactional) refuses `enabled: false` with a
 * SCHEMA_ERROR naming it (the catalogue has no code of its own for this; upstream stores the choice and ignores it).
 */
export function setNotificationPreference(
  ctx: OpContext,
  user: UserRecord,
  categoryId: string,
  enabled: boolean,
): NotificationPreference {
  const category = requireCategory(categoryId);
  if (!enabled && !category.canDisable) {
    throw knownError("SCHEMA_ERROR", {
      message: `The notification category "${category.name}" (${category.id}) cannot be disabled: its can_disable is false.`,
    });
  }
  ctx.tables.notificationPreferences.set(prefKey(user.id, category.id), {
    projectId: user.projectId,
    userId: user.id,
    categoryId: category.id,
    enabled,
  });
  return { category, enabled };
}
