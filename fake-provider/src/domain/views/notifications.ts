import type { NotificationPreferenceJson } from "@authsim/sdk/contract";
import type { NotificationPreference } from "../ops/users/notifications.ts";

/** protocol.md §5.11. */
export function notificationPreferenceView(p: NotificationPreference): NotificationPreferenceJson {
  return {
    notification_category_id: p.category.id,
    notification_category_name: p.category.name,
    enabled: p.enabled,
    can_disable: p.category.canDisable,
  };
}
