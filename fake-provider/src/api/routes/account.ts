import { apiKeyRoutes } from "./api-keys.ts";
import { contactChannelRoutes } from "./contact-channels.ts";
import type { AnyRouteSpec } from "./define.ts";
import { internalApiKeyRoutes } from "./internal-api-keys.ts";
import { notificationRoutes } from "./notifications.ts";
import { otpRoutes } from "./otp.ts";
import { passwordRoutes } from "./password.ts";
import { sessionListRoutes } from "./session-list.ts";

/** The account surfaces of spec §3–§5 (issue 4), registered together in api/routes/index.ts. */
export const accountRoutes: Record<string, AnyRouteSpec> = {
  ...contactChannelRoutes,
  ...passwordRoutes,
  ...otpRoutes,
  ...sessionListRoutes,
  ...notificationRoutes,
  ...apiKeyRoutes,
  ...internalApiKeyRoutes,
};
