import type { LoadReport } from "@authsim/fixtures";
import { CONTROL_PREFIX } from "@authsim/fake-provider";
import { envLines } from "./env-lines.ts";

/** Parts of the dev server's start banner (cli.ts) that depend on its options and state: words only, nothing printed here. */

/** The banner's words for --deterministic: the seed, and where the clock stands (the fixed start, or as restored). */
export function deterministicNote(
  seed: string,
  clock: { now(): number; readonly frozen: boolean },
  restoredSnapshot: boolean,
): string {
  const now = new Date(clock.now()).toISOString();
  const where = restoredSnapshot
    ? `the clock is as the snapshot left it (${clock.frozen ? "frozen" : "running"}, at ${now})`
    : `the clock is frozen at ${now}, so timestamps repeat too`;
  // A frozen past instant is the price of repeatable snapshots: say what it does to an app that reads the wall clock.
  return (
    `Deterministic ids, codes and keys (seed "${seed}"); ${where}. Move it with POST ${CONTROL_PREFIX}/clock/advance or ` +
    "/clock/freeze {at_millis}: an app that checks token expiry against its own clock sees these tokens as expired."
  );
}

/** The banner's part for --seed: what was loaded, and the env lines of each seeded project. */
export function seededLines(file: string, report: LoadReport, apiUrl: string): string[] {
  return report.projects.flatMap((p) => [
    `Seeded from ${file}: project ${p.projectId} (${Object.keys(p.users).length} users, ${Object.keys(p.teams).length} teams).`,
    ...p.warnings,
    "",
    ...envLines(apiUrl, {
      id: p.projectId,
      publishable: p.keys.publishable_client_key,
      secret: p.keys.secret_server_key,
      admin: p.keys.super_secret_admin_key,
    }),
    "",
  ]);
}
