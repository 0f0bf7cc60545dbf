import type { SentEmail } from "@authsim/sdk/emulator";
import { controlOf, type Target } from "../targets.ts";
import { clientApp, PASSWORD, providerOf, serverApp, uniqueEmail, uniqueTag } from "./support.ts";

/** What the teams and permissions suites share (spec §3–§4, §6; protocol.md §5.3–5.5). */

/** Emailed links point here; the dev project allows localhost (spec §5 trusted domains). */
export const INVITE_CALLBACK = "http://localhost:3000/handler/team-invitation";

/** Why an invitation case skips: the code arrives only by email, which a real service really sends. */
export const NO_OUTBOX_REASON = "reads the invitation code from the emulator's outbox, which this target does not have";

/** Whether the target lets a case read the emails the provider sent. */
export const hasOutbox = (target: Target): boolean => providerOf(target) !== null || target.controls !== null;

/** A unique permission id of the custom pattern `^[a-z0-9_:]+$` (uniqueTag's hyphens are not allowed). */
export function permissionTag(prefix: string): string {
  return uniqueTag(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9_:]/g, "_");
}

/** The team invitation email sent to `to`: from the provider in this process, else through /__emulator/outbox/wait. */
export async function invitationEmail(target: Target, to: string): Promise<SentEmail> {
  const provider = providerOf(target);
  if (provider) return provider.outbox.waitFor({ to, kind: "team_invitation" });
  return await controlOf(target).call("waitForEmail", { query: { to, kind: "team_invitation", timeoutMs: 5_000 } });
}

/**
 * A signed-in client whose email is verified, made through public endpoints only (the server creates it verified):
 * invitations are listed to, and accepted by id by, the user who verified the invited address (protocol.md §5.5).
 */
export async function verifiedClient(target: Target, email = uniqueEmail("verified")) {
  await serverApp(target).createUser({
    primaryEmail: email,
    primaryEmailVerified: true,
    primaryEmailAuthEnabled: true,
    password: PASSWORD,
  });
  const app = clientApp(target);
  const signIn = await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
  if (signIn.status !== "ok") throw new Error(`The verified user ${email} could not sign in: ${signIn.error.code}`);
  return { app, email, user: await app.getUser({ or: "throw" }) };
}
