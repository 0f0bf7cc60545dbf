import type { FeedbackRequest, InitScriptCallbackRequest } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import type { Auth } from "../../auth/caller.ts";
import { callerBySchema, signedInBySchema } from "../caller-schema.ts";
import type { OpContext } from "../context.ts";
import { escapeHtml, newOutboxFields, htmlTemplateSource } from "../emails/email-outbox.ts";
import { recordSentEmail } from "../emails/email-sending.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * Small internal routes (docs/internal-extras.md), each plain state or a fixed answer:
 * - component versions: the hosted pages the real service versions, each at version 1 ("Initial version.");
 * - feedback: an email to the support inbox in the caller's project (the internal one without auth), as upstream;
 * - changelog: the real service reads its changelog from GitHub; the emulator opens no network, so it has none;
 * - local-emulator project: only the real service's local-emulator mode serves it; authsim is not that mode.
 * - preview project: only the real service's preview mode serves it; authsim is not that mode.
 * - init-script report: upstream posts it to its team chat; here the message is kept as data (chatMessages).
 * Feature requests (Featurebase upstream) are in feature-requests.ts.
 */

const PAGES = [
  "signIn",
  "signUp",
  "signOut",
  "emailVerification",
  "passwordReset",
  "forgotPassword",
  "oauthCallback",
  "magicLinkCallback",
  "accountSettings",
  "teamInvitation",
  "mfa",
  "error",
  "onboarding",
] as const;

export function componentVersions() {
  return {
    versions: Object.fromEntries(PAGES.map((page) => [page, { version: 1, changelogs: { "1": "Initial version." } }])),
  };
}

/** Where the real service sends support feedback. */
export const SUPPORT_INBOX = "team@stack-auth.com";

export function sendFeedback(ctx: OpContext, auth: Auth | null, body: FeedbackRequest): { success: true } {
  const projectId = auth?.project.id ?? INTERNAL_PROJECT_ID;
  const subject = `${body.feedback_type === "bug" ? "[Bug Report]" : "[Support]"} ${body.email}`;
  const lines = [
    `Name: ${body.name ?? "(not given)"}`,
    `Email: ${body.email}`,
    ...(auth?.user ? [`User ID: ${auth.user.id}`, `Project ID: ${auth.project.id}`] : []),
    "",
    body.message,
  ];
  const text = lines.join("\n");
  const html = `<div>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}</div>`;
  recordSentEmail(
    ctx,
    projectId,
    SUPPORT_INBOX,
    null,
    { subject, html, text },
    newOutboxFields(ctx, { type: "custom-emails", emails: [SUPPORT_INBOX] }, { tsxSource: htmlTemplateSource(html) }),
  );
  return { success: true };
}

export const changelog = () => ({ entries: [] });

/**
 * The real service answers this only with NEXT_PUBLIC_STACK_IS_LOCAL_EMULATOR=true, a mode authsim never runs in: the
 * internal project is required first (a schema rule on the caller's project), then the mode's plain-text 400.
 */
export function localEmulatorProject(auth: Auth, where: { method: string; pathname: string }): never {
  callerBySchema(auth, where, { user: false, internalProject: true });
  throw refusal("endpointOnlyAvailableLocalEmulator");
}

/**
 * POST /internal/preview/create-project: the caller must fit the schema (a user of the internal project), then the real
 * service refuses outside its preview mode (NEXT_PUBLIC_STACK_IS_PREVIEW), which authsim never runs in.
 */
export function previewCreateProject(auth: Auth, where: { method: string; pathname: string }): never {
  signedInBySchema(auth, where, true);
  throw refusal("endpointOnlyAvailablePreviewMode");
}

/** The chat the init script's reports go to. */
export const INIT_SCRIPT_CHANNEL = "init-stack";

/**
 * POST /internal/init-script-callback: the report becomes one chat message, kept in chatMessages (upstream sends it to
 * Telegram). The message is a summary of the report's fields, one per line; a long stack is cut.
 */
export function initScriptCallback(ctx: OpContext, report: InitScriptCallbackRequest): { success: true } {
  const error = report.error ? `${report.error.name ? `${report.error.name}: ` : ""}${report.error.message}` : "none";
  const lines = [
    `init ${report.success ? "succeeded" : "failed"} at ${report.timestamp}`,
    ...(report.distinctId ? [`distinct id: ${report.distinctId}`] : []),
    `non-interactive: ${report.isNonInteractive}`,
    ...(report.projectPath ? [`project path: ${report.projectPath}`] : []),
    `options: ${JSON.stringify(report.options) ?? "undefined"}`,
    `args: ${JSON.stringify(report.args)}`,
    `error: ${error}`,
    ...(report.error?.stack ? [`stack: ${report.error.stack.slice(0, STACK_LIMIT)}`] : []),
  ];
  const id = uuid(ctx.random);
  ctx.tables.chatMessages.set(id, { id, channel: INIT_SCRIPT_CHANNEL, text: lines.join("\n"), sentAtMillis: ctx.now });
  return { success: true };
}

/** The longest stack a report keeps (a chat message has a size limit). */
const STACK_LIMIT = 4000;
