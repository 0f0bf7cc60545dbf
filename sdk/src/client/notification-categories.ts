import { notificationPreference, notificationPreferenceList, type NotificationPreferenceJson } from "../contract/areas/notifications.ts";
import type { RequestOptions } from "../transport/transport.ts";
import type { AppContext } from "./app-context.ts";

/** Notification categories and the user's choice for each (spec §3; sdk-surface.md §16; protocol.md §5.11). */
export interface NotificationCategory {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly canDisable: boolean;
  /** A category whose canDisable is false refuses `false` (SCHEMA_ERROR naming it). */
  setEnabled(enabled: boolean): Promise<void>;
}

const preferencesPath = (userId: string) => `/emails/notification-preference/${encodeURIComponent(userId)}`;

function categoryFromJson(ctx: AppContext, auth: RequestOptions, userId: string, json: NotificationPreferenceJson): NotificationCategory {
  return {
    id: json.notification_category_id,
    name: json.notification_category_name,
    enabled: json.enabled,
    canDisable: json.can_disable,
    async setEnabled(enabled) {
      const path = `${preferencesPath(userId)}/${encodeURIComponent(json.notification_category_id)}`;
      await ctx.transport.requestJson(path, { ...auth, method: "PATCH", body: { enabled } }, notificationPreference);
    },
  };
}

export async function listNotificationCategories(ctx: AppContext, auth: RequestOptions, userId: string): Promise<NotificationCategory[]> {
  const page = await ctx.transport.requestJson(preferencesPath(userId), auth, notificationPreferenceList);
  return page.items.map((json) => categoryFromJson(ctx, auth, userId, json));
}
