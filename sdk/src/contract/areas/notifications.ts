import { z } from "zod";
import { listEnvelope, userIdOrMe, uuidV4 } from "./common.ts";
import { defineOperations, json } from "../define-operations.ts";

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

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const notificationsOperations = defineOperations("notifications", {
  listNotificationPreferences: {
    method: "GET",
    path: "/emails/notification-preference/:user_id",
    access: "client",
    params: notificationPreferenceListParams,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"],
    responses: [json(notificationPreferenceList)],
  },
  updateNotificationPreference: {
    method: "PATCH",
    path: "/emails/notification-preference/:user_id/:category_id",
    access: "client",
    params: notificationPreferenceParams,
    body: notificationPreferenceUpdate,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "SCHEMA_ERROR", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"],
    responses: [json(notificationPreference)],
  },
});
