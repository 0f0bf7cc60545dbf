import { openExternalDb } from "#db-sync-client";
import type { ControllableClock } from "../../clock.ts";
import { claimSyncJobs } from "../../domain/ops/db-sync/db-sync-endpoints.ts";
import { runSyncJob, type DatabaseOutcome, type OpenExternalDb } from "../../domain/ops/db-sync/db-sync-engine.ts";
import { anyLayerMentionsSync } from "../../domain/ops/db-sync/db-sync-config.ts";
import { fuseboxOf } from "../../domain/ops/db-sync/db-sync-fusebox.ts";
import { projectsWithSync, runSequencer } from "../../domain/ops/db-sync/db-sync-sequencer.ts";
import { runOp, type OpDeps } from "../../domain/run-op.ts";
import type { TimedWorker } from "./runner.ts";

/**
 * The external database sync as timed work (docs/emulator.md, "External database sync"). The real service's sequencer
 * and poller run all the time under its scheduler, so this is right-away work: after any change (a committed
 * transaction) the sequencer runs over the projects with external databases, and each project it found changed is
 * synced, one database connection at a time, with no lock held. Requests never wait for it: a database is another
 * server, perhaps slow or gone (each connection is bounded; see db-sync-client-node.ts).
 */
export interface DbSyncWorkerOptions {
  /** How a database is reached; PostgreSQL over `pg` in Node (package.json `#db-sync-client`). */
  open?: OpenExternalDb;
  /** Each sync's outcome per database (the dev server logs failures). */
  onOutcome?: (projectId: string, outcomes: DatabaseOutcome[]) => void;
}

export function dbSyncWorker(
  deps: OpDeps & { clock: ControllableClock },
  options: DbSyncWorkerOptions = {},
): TimedWorker {
  const open = options.open ?? openExternalDb;
  // Anything may have changed before the worker existed (a restored snapshot, the seed): look once.
  let changed = true;
  deps.store.onCommit(() => {
    changed = true;
  });
  const read = () => deps.store.read;
  const waiting = () => read().dbSyncRequests.size > 0 && fuseboxOf(read()).pollerEnabled;
  return {
    kind: "db-sync",
    holdsRequests: false,
    // A change while no config layer names the sync's section leaves nothing to sequence: not due, so a request that
    // changed something starts no run (a change that adds a database is itself a commit, which sets `changed` again).
    nextDueAt: () =>
      (changed && fuseboxOf(read()).sequencerEnabled && anyLayerMentionsSync(read())) || waiting()
        ? deps.clock.now()
        : null,
    async step() {
      let handled = 0;
      // Most changes are in projects without external databases: those cost a read, no transaction.
      if (changed) {
        changed = false;
        if (projectsWithSync(read()).length > 0) handled += await runOp(deps, runSequencer);
      }
      const jobs = read().dbSyncRequests.size > 0 ? await runOp(deps, claimSyncJobs) : [];
      for (const job of jobs) {
        const outcomes = await runSyncJob(job, open);
        options.onOutcome?.(job.projectId, outcomes);
      }
      return handled + jobs.length;
    },
    pending() {
      return [...read().dbSyncRequests.values()].map((r) => ({
        kind: "db-sync",
        what: "external database sync",
        count: 1,
        dueAtMillis: r.createdAtMillis,
      }));
    },
  };
}
