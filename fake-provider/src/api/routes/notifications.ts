import {
  notificationPreferencesOf,
  preferencesUser,
  requireCategory,
  setNotificationPreference,
} from "../../domain/ops/users/notifications.ts";
import { notificationPreferenceView } from "../../domain/views/notifications.ts";
import { ok, type RouteTable } from "./define.ts";

/** GET /emails/notification-preference/{user_id} and PATCH …/{category_id} (protocol.md §5.11). */

export const notificationRoutes: RouteTable = {
  listNotificationPreferences: {
    handler: ({ auth, ctx, params }) => {
      const user = preferencesUser(auth, ctx, params.user_id, "view");
      return ok({ items: notificationPreferencesOf(ctx, user).map(notificationPreferenceView), is_paginated: false });
    },
  },
  updateNotificationPreference: {
    handler: ({ auth, ctx, params, body }) => {
      // `me` resolved (when the path is read), then the category, then the caller and the user (the real order).
      if (params.user_id === "me" && !auth.user) preferencesUser(auth, ctx, params.user_id, "manage");
      requireCategory(params.category_id);
      const user = preferencesUser(auth, ctx, params.user_id, "manage");
      return ok(notificationPreferenceView(setNotificationPreference(ctx, user, params.category_id, body.enabled)));
    },
  },
};
