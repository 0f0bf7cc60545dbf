import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { loadFixture, type LoadedProject } from "@authsim/fixtures";
import type { CurrentUser, StackClientApp } from "@authsim/sdk";
import { inProcessTarget, type InProcessTarget } from "../targets.ts";
import { clientApp } from "../suites/support.ts";

/**
 * What the fixture-driven scenarios share (issue 10): a scenario of fixtures/scenarios/ loaded into a fresh in-process
 * fake through the public API, and a target for the scenario's project, so the suites' helpers (apps, the checkout
 * page, the mock identity provider) work on it unchanged.
 */

/** Every scenario's users have this password (see each file's $comment). */
export const SCENARIO_PASSWORD = "correct horse battery";

export function readScenario(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/scenarios/${file}`, import.meta.url), "utf8")) as Record<
    string,
    unknown
  >;
}

export interface LoadedScenario {
  /** The in-process fake, aimed at the scenario's (first) project and its keys. */
  target: InProcessTarget;
  project: LoadedProject;
}

/** Loads `document` (a scenario, possibly edited by the test) into a fresh fake. */
export async function loadScenario(document: unknown): Promise<LoadedScenario> {
  const fake = inProcessTarget();
  const report = await loadFixture(document, { baseUrl: fake.baseUrl, fetch: fake.fetch, emulator: true });
  const project = report.projects[0]!;
  expect(project.warnings).toEqual([]);
  const target: InProcessTarget = {
    ...fake,
    name: `scenario project ${project.projectId}`,
    projectId: project.projectId,
    publishableClientKey: project.keys.publishable_client_key,
    secretServerKey: project.keys.secret_server_key,
    superSecretAdminKey: project.keys.super_secret_admin_key,
  };
  return { target, project };
}

/** A client app signed in as a scenario user, and that user. */
export async function signedIn(
  target: InProcessTarget,
  email: string,
): Promise<{ app: StackClientApp; user: CurrentUser }> {
  const app = clientApp(target);
  const result = await app.signInWithCredential({ email, password: SCENARIO_PASSWORD, noRedirect: true });
  expect(result.status).toBe("ok");
  return { app, user: await app.getUser({ or: "throw" }) };
}
