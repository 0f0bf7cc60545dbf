import { onTestFinished } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { controlOf, type Target } from "../targets.ts";
import { adminApp, uniqueTag, type Requirement } from "./support.ts";

/**
 * A project of a case's own, for cases that change project configuration: on a long-lived target every case shares
 * the project under test, so switching its sign-up or team creation off (even briefly) could break whatever else runs
 * against it. The emulator makes a project with fresh keys through POST /__emulator/projects; the case then configures
 * it through the admin API (PATCH /internal/projects/current), as an app's owner would.
 */

/** Why such a case skips where no emulator can make it a project. */
export const NO_OWN_PROJECT_REASON =
  "changes the project's configuration, so it needs a project of its own made by the emulator's POST /__emulator/projects, which this target does not have (changing the project under test would disturb it)";

export const ownProjectNeed = (t: Target): Requirement => [t.controls !== null, NO_OWN_PROJECT_REASON];

/**
 * The target, switched to a new project set up like the dev project (the same flags, localhost trusted for emailed
 * links). Same fetch, controls and clock: only the project id and keys change. Called inside a case; the project is
 * deleted when the case ends (DELETE /internal/projects/current), so a long-lived target does not collect them.
 */
export async function projectOfItsOwn(target: Target): Promise<Target> {
  if (!target.controls) throw new Error(NO_OWN_PROJECT_REASON);
  const project = await controlOf(target).call("createProject", {
    body: { display_name: uniqueTag("conformance-own"), config: devProjectSeed.config },
  });
  const { publishable_client_key: pck, secret_server_key: ssk, super_secret_admin_key: sak } = project;
  if (!pck || !ssk || !sak) throw new Error(`The new project ${project.id} came without its three keys.`);
  const keys = { publishableClientKey: pck, secretServerKey: ssk, superSecretAdminKey: sak };
  const own: Target = { ...target, ...keys, name: `${target.name}, project ${project.id}`, projectId: project.id };
  onTestFinished(async () => (await adminApp(own).getProject()).delete());
  return own;
}
