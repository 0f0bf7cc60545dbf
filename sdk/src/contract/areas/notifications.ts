import { z } from "zod";
import { listEnvelope, userIdOrMe, uuidV4 } from "./common.ts";

/** Notification categories and a user's preference for each (spec §3 "Notification category", protocol.md §5.11). */

export const notificationPreference = z.object({
  notification_category_id: uuidV4,
  notification_category_name: z.string(),
  enabled: z.boolean(),
  can_disable: z.boolean(),
});
export type NotificationPreferenceJson = z.infer<typeof notificationPreference>;
export const notificationPreferenceList = listEnvelope(notificationPreference);

export const notificationPreferenceListParams = z.strictObject({ user_id: userIdOrMe });
export const notificationPreferenceParams = z.strictObject({ user_id: userIdOrMe, category_id: uuidV4 });
export const notificationPreferenceUpdate = z.strictObject({ enabled: z.boolean() });
