import { type NotificationPreferenceJson } from "../contract/areas/notifications.ts";
import { asClient, type CallAuth } from "../transport/operation-call.ts";
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

function categoryFromJson(
  ctx: AppContext,
  auth: CallAuth,
  userId: string,
  json: NotificationPreferenceJson,
): NotificationCategory {
  return {
    id: json.notification_category_id,
    name: json.notification_category_name,
    enabled: json.enabled,
    canDisable: json.can_disable,
    async setEnabled(enabled) {
      const params = { user_id: userId, category_id: json.notification_category_id };
      await asClient.json(ctx.transport, "updateNotificationPreference", { ...auth, params, body: { enabled } });
    },
  };
}

export async function listNotificationCategories(
  ctx: AppContext,
  auth: CallAuth,
  userId: string,
): Promise<NotificationCategory[]> {
  const page = await asClient.json(ctx.transport, "listNotificationPreferences", {
    ...auth,
    params: { user_id: userId },
  });
  return page.items.map((json) => categoryFromJson(ctx, auth, userId, json));
}
