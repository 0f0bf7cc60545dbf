import type { SentEmail } from "@authsim/sdk/emulator";
import { controlOf, type Target } from "../targets.ts";
import { manualClockOf, providerOf, type Requirement } from "./support.ts";

/**
 * What the account suites share (issue 4): the callback URLs emailed links point at, and the outbox, read through the
 * provider object in process or through GET /__emulator/outbox over HTTP (the path a remote fake offers).
 */

/** The dev project allows localhost callbacks (spec §5 trusted domains). */
export const CALLBACKS = {
  emailVerification: "http://localhost:3000/handler/email-verification",
  passwordReset: "http://localhost:3000/handler/password-reset",
  magicLink: "http://localhost:3000/handler/magic-link-callback",
} as const;

export const NO_OUTBOX_REASON = "reads the emailed code from the emulator's outbox, which this target does not have";

export const accountNeeds = {
  outbox: (t: Target): Requirement => [providerOf(t) !== null || t.controls !== null, NO_OUTBOX_REASON],
};

export type OutboxEmail = Pick<
  SentEmail,
  "to" | "kind" | "subject" | "code" | "otp" | "link" | "html" | "text" | "seq"
>;
type Kind = "email_verification" | "password_reset" | "magic_link";

/** The in-process target reads the provider directly; any other fake is asked over HTTP. */
function inProcess(target: Target) {
  return manualClockOf(target) ? providerOf(target) : null;
}

/** Every email to `to` so far, oldest first. */
export async function emailsTo(target: Target, to: string, kind?: Kind): Promise<OutboxEmail[]> {
  const provider = inProcess(target);
  if (provider) return provider.outbox.list({ to, ...(kind ? { kind } : {}) });
  return (await controlOf(target).call("emails", { query: { to, ...(kind ? { kind } : {}) } })).items;
}

/** The first email of a kind to `to` sent after sequence number `afterSeq`, waiting for it (bounded). */
export async function nextEmail(target: Target, to: string, kind: Kind, afterSeq = 0): Promise<OutboxEmail> {
  const provider = inProcess(target);
  if (provider) return provider.outbox.waitFor({ to, kind, afterSeq }, { timeoutMs: 5_000 });
  return await controlOf(target).call("waitForEmail", { query: { to, kind, afterSeq, timeoutMs: 5_000 } });
}

/** The sequence number of the latest email to `to` (0 if none): wait for what comes after it. */
export async function lastSeq(target: Target, to: string): Promise<number> {
  return (await emailsTo(target, to)).at(-1)?.seq ?? 0;
}

/** The code an emailed link carries: `callback?code=<code>` (protocol.md §7.2–7.3). */
export function codeOfLink(link: string | null): string {
  const code = link ? new URL(link).searchParams.get("code") : null;
  if (!code) throw new Error(`The emailed link has no code: ${String(link)}`);
  return code;
}
