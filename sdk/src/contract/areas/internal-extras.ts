import { z } from "zod";
import { defineOperations, json, success } from "../define-operations.ts";

/**
 * Small internal routes of the real service's dashboard and dev tool: the hosted pages' component versions, support
 * feedback, the changelog and the webhook test (ops/internal/internal-extras.ts says what each does here).
 */

export const componentVersions = z.object({
  versions: z.record(z.string(), z.object({ version: z.number(), changelogs: z.record(z.string(), z.string()) })),
});

export const feedbackRequest = z.strictObject({
  name: z.string().max(100).optional(),
  email: z.string().email(),
  message: z.string().min(1, "must not be empty").max(5000),
  feedback_type: z.enum(["feedback", "bug"]).optional(),
});
export type FeedbackRequest = z.infer<typeof feedbackRequest>;

export const changelogResponse = z.object({
  entries: z
    .array(
      z.object({
        version: z.string(),
        type: z.enum(["major", "minor", "patch"]),
        markdown: z.string(),
        bulletCount: z.number(),
        releasedAt: z.string().optional(),
        isUnreleased: z.boolean().optional(),
      }),
    )
    .optional(),
});

export const sendTestWebhookRequest = z.strictObject({ endpoint_id: z.string() });
export const sendTestWebhookResponse = z.object({ success: z.boolean(), error_message: z.string().optional() });

/**
 * POST /internal/local-emulator/project: the real service's local-emulator mode maps a stack.config.ts file on disk to
 * a project. authsim is not that mode, so it always refuses (ops/internal/internal-extras.ts); the shapes are the wire's.
 */
export const localEmulatorProjectRequest = z.strictObject({ absolute_file_path: z.string() });
export const localEmulatorProjectResponse = z.object({
  project_id: z.string(),
  publishable_client_key: z.string(),
  secret_server_key: z.string(),
  super_secret_admin_key: z.string(),
  branch_config_override_string: z.string(),
});

export const capacityBoostResponse = z.object({ expires_at: z.string() });

/** POST /internal/preview/create-project: no body fields (upstream's empty object). */
export const previewCreateProjectRequest = z.strictObject({}).optional();
export const previewCreateProjectResponse = z.object({ project_id: z.string() });

/** POST /internal/init-script-callback: what the init script reports when it finishes (upstream posts it to a chat). */
export const initScriptCallbackRequest = z.strictObject({
  success: z.boolean(),
  distinctId: z.string().optional(),
  // Any value the script's options were, but present.
  options: z
    .unknown()
    .refine((value) => value !== undefined, { message: "body.options must be defined", params: { bare: true } }),
  args: z.array(z.string()),
  isNonInteractive: z.boolean(),
  timestamp: z.string(),
  projectPath: z.string().optional(),
  error: z.strictObject({ name: z.string().optional(), message: z.string(), stack: z.string().optional() }).optional(),
});
export type InitScriptCallbackRequest = z.infer<typeof initScriptCallbackRequest>;
export const initScriptCallbackResponse = z.object({ success: z.literal(true) });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const internalExtrasOperations = defineOperations("internal-extras", {
  // Small internal routes of the dashboard and dev tool (areas/internal-extras.ts).
  componentVersions: {
    method: "GET",
    path: "/internal/component-versions",
    access: "none",
    errors: [],
    responses: [json(componentVersions)],
  },
  sendFeedback: {
    method: "POST",
    path: "/internal/feedback",
    access: "none",
    body: feedbackRequest,
    errors: [],
    responses: [success],
  },
  getChangelog: {
    method: "GET",
    path: "/internal/changelog",
    access: "none",
    errors: [],
    responses: [json(changelogResponse)],
  },
  sendTestWebhook: {
    method: "POST",
    path: "/internal/send-test-webhook",
    access: "admin",
    body: sendTestWebhookRequest,
    errors: [],
    responses: [json(sendTestWebhookResponse)],
  },
  previewCreateProject: {
    method: "POST",
    path: "/internal/preview/create-project",
    access: "client",
    body: previewCreateProjectRequest,
    errors: ["SCHEMA_ERROR"],
    responses: [json(previewCreateProjectResponse)],
  },
  initScriptCallback: {
    method: "POST",
    path: "/internal/init-script-callback",
    access: "none",
    body: initScriptCallbackRequest,
    errors: [],
    responses: [json(initScriptCallbackResponse)],
  },
  localEmulatorProject: {
    method: "POST",
    path: "/internal/local-emulator/project",
    access: "client",
    body: localEmulatorProjectRequest,
    errors: ["SCHEMA_ERROR"],
    responses: [json(localEmulatorProjectResponse)],
  },
});
