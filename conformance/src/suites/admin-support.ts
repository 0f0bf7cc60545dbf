import { expect, onTestFinished } from "vitest";
import {
  isKnownError,
  type AdminOwnedProject,
  type AdminSentEmail,
  type StackAdminApp,
  type StackClientApp,
} from "@authsim/sdk";
import type { Target } from "../targets.ts";
import { clientApp, internalUser, serverApp, uniqueTag } from "./support.ts";

/**
 * What the admin suites share: a fresh project owned by a fresh dashboard user (spec §6 "Project owners (internal
 * project only) can create and list owned projects"), so cases that change or delete a project never touch the target's
 * own, and apps for that project built on keys its owner creates (protocol.md §8: a new project has none). Each is
 * deleted when its case ends, so a long-lived target (a dev server the bin runs against) does not collect them.
 */

export interface OwnedFixture {
  owner: StackClientApp;
  teamId: string;
  project: AdminOwnedProject;
  admin: StackAdminApp;
  /** Client and server apps on the owned project, with keys its admin created. */
  client(): StackClientApp;
  server(): ReturnType<typeof serverApp>;
}

export async function ownedProject(target: Target, displayName = uniqueTag("owned")): Promise<OwnedFixture> {
  const { app: owner } = await internalUser(target);
  const user = await owner.getUser({ or: "throw" });
  const team = await user.createTeam({ displayName: uniqueTag("owners") });
  const project = await user.createProject!({ displayName, teamId: team.id });
  onTestFinished(async () => {
    // Unless the case deleted it itself (what some cases test): then its admin app finds no project any more.
    const exists = await project.app.getProject().then(
      () => true,
      (e: unknown) => {
        if (isKnownError(e) && e.code === "CURRENT_PROJECT_NOT_FOUND") return false;
        throw e;
      },
    );
    if (exists) await project.delete();
  });
  const keys = await project.app.createInternalApiKey({
    description: "conformance",
    expiresAt: new Date(Date.UTC(2100, 0, 1)),
    hasPublishableClientKey: true,
    hasSecretServerKey: true,
    hasSuperSecretAdminKey: false,
  });
  const scoped = { projectId: project.id, publishableClientKey: keys.publishableClientKey! };
  return {
    owner,
    teamId: team.id,
    project,
    admin: project.app,
    client: () => clientApp(target, scoped),
    server: () => serverApp(target, { ...scoped, secretServerKey: keys.secretServerKey! }),
  };
}

/** A plain-text 400 of the provider (no known-error header), as the SDK raises it: an HttpError carrying the body. */
export async function expectPlainError(promise: Promise<unknown>, status: number): Promise<string> {
  const error: unknown = await promise.then(
    () => {
      throw new Error(`Expected a plain ${status} error, but the call succeeded.`);
    },
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ name: "HttpError", status });
  return (error as { bodyText: string }).bodyText;
}

export const SMTP = {
  host: "smtp.example.com",
  port: 587,
  username: "mailer",
  password: "secret",
  senderName: "Conformance",
  senderEmail: "noreply@example.com",
};

/**
 * The project's sent emails once `ready` holds of them. A service sends from a queue (the real one a moment after the
 * request, authsim's dev server within a second), so a case reads the outbox until the email is there, up to a bound.
 */
export async function sentEmailsWhen(
  admin: StackAdminApp,
  ready: (emails: AdminSentEmail[]) => boolean,
  timeoutMs = 10_000,
): Promise<AdminSentEmail[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const emails = await admin.listSentEmails();
    if (ready(emails) || performance.now() > deadline) return emails;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
