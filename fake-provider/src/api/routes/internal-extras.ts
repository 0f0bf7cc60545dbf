import { feedbackRequest, localEmulatorProjectRequest, sendTestWebhookRequest } from "@authsim/sdk/contract";
import { urlOf } from "../http/request-url.ts";
import * as extras from "../../domain/ops/internal-extras.ts";
import { ok, route, type AnyRouteSpec } from "./define.ts";

/** Small internal routes (domain/ops/internal-extras.ts). */
export const internalExtraRoutes: Record<string, AnyRouteSpec> = {
  componentVersions: route({ handler: () => ok(extras.componentVersions()) }),
  sendFeedback: route({ body: feedbackRequest, handler: ({ auth, ctx, body }) => ok(extras.sendFeedback(ctx, auth, body)) }),
  getChangelog: route({ handler: () => ok(extras.changelog()) }),
  sendTestWebhook: route({ body: sendTestWebhookRequest, handler: () => ok(extras.sendTestWebhook()) }),
  localEmulatorProject: route({
    body: localEmulatorProjectRequest,
    handler: ({ auth, request }) => extras.localEmulatorProject(auth!, { method: request.method, pathname: urlOf(request).pathname }),
  }),
};
