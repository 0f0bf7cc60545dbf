import { notificationPreferencesOf, setNotificationPreference } from "../../domain/ops/users/notifications.ts";
import { notificationPreferenceView } from "../../domain/views/notifications.ts";
import { ok, type RouteTable } from "./define.ts";
import { targetUser } from "../../domain/ops/access.ts";

/** GET /emails/notification-preference/{user_id} and PATCH …/{category_id} (protocol.md §5.11). */
const WHAT = "notification preferences";

export const notificationRoutes: RouteTable = {
  listNotificationPreferences: {
    handler: ({ auth, ctx, params }) => {
      const user = targetUser(auth, ctx, params.user_id, WHAT);
      return ok({ items: notificationPreferencesOf(ctx, user).map(notificationPreferenceView), is_paginated: false });
    },
  },
  updateNotificationPreference: {
    handler: ({ auth, ctx, params, body }) => {
      const user = targetUser(auth, ctx, params.user_id, WHAT);
      return ok(notificationPreferenceView(setNotificationPreference(ctx, user, params.category_id, body.enabled)));
    },
  },
};
