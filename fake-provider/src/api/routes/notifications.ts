import { notificationPreferenceListParams, notificationPreferenceParams, notificationPreferenceUpdate } from "@authsim/sdk/contract";
import { notificationPreferencesOf, setNotificationPreference } from "../../domain/ops/notifications.ts";
import { notificationPreferenceView } from "../../domain/views/notifications.ts";
import { ok, route, type AnyRouteSpec } from "./define.ts";
import { targetUser } from "./target-user.ts";

/** GET /emails/notification-preference/{user_id} and PATCH …/{category_id} (protocol.md §5.11). */
const WHAT = "notification preferences";

export const notificationRoutes: Record<string, AnyRouteSpec> = {
  listNotificationPreferences: route({
    params: notificationPreferenceListParams,
    handler: ({ auth, ctx, params }) => {
      const user = targetUser(auth!, ctx, params.user_id, WHAT);
      return ok({ items: notificationPreferencesOf(ctx, user).map(notificationPreferenceView), is_paginated: false });
    },
  }),
  updateNotificationPreference: route({
    params: notificationPreferenceParams,
    body: notificationPreferenceUpdate,
    handler: ({ auth, ctx, params, body }) => {
      const user = targetUser(auth!, ctx, params.user_id, WHAT);
      return ok(notificationPreferenceView(setNotificationPreference(ctx, user, params.category_id, body.enabled)));
    },
  }),
};
