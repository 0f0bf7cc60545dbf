import { where } from "./user-by-schema.ts";
import * as extras from "../../domain/ops/internal/internal-extras.ts";
import { sendTestWebhook } from "../../domain/ops/webhooks/test-webhook.ts";
import { mapStep } from "../../domain/ops/outside-lock.ts";
import { ok, type RouteTable } from "./define.ts";

/** Small internal routes (domain/ops/internal/internal-extras.ts). */
export const internalExtraRoutes: RouteTable = {
  componentVersions: { handler: () => ok(extras.componentVersions()) },
  sendFeedback: { handler: ({ auth, ctx, body }) => ok(extras.sendFeedback(ctx, auth, body)) },
  getChangelog: { handler: () => ok(extras.changelog()) },
  sendTestWebhook: {
    handler: ({ auth, ctx, body }) => mapStep(sendTestWebhook(ctx, auth.project.id, body.endpoint_id), ok, ctx),
  },
  localEmulatorProject: { handler: ({ auth, request }) => extras.localEmulatorProject(auth, where(request)) },
  previewCreateProject: { handler: ({ auth, request }) => extras.previewCreateProject(auth, where(request)) },
  initScriptCallback: { handler: ({ ctx, body }) => ok(extras.initScriptCallback(ctx, body)) },
};
