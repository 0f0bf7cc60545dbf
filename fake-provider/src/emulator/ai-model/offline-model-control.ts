import { clearScript, queueReply, scriptedReplies, type ScriptedReply } from "../../domain/ops/ai/offline-model.ts";
import { runOp, type OpDeps } from "../../domain/run-op.ts";
import { opContextOn } from "../../domain/run-op.ts";

/**
 * The test's handle on the offline model (domain/ops/ai/offline-model.ts), as `provider.ai` and behind the control plane's
 * `/__emulator/ai/script`: queue the answers the model gives next (texts, or failures with a status), read the queue,
 * empty it. Like faults, but state: snapshots keep the queue and reset() empties it.
 */
export interface OfflineModelControl {
  /** Queues answers, oldest first; refuses (and queues none) past the queue's bound. */
  script(...replies: ScriptedReply[]): Promise<void>;
  /** The answers still queued, oldest first. */
  scripted(): ScriptedReply[];
  clear(): Promise<void>;
}

export class ScriptFullError extends Error {}

export function createOfflineModelControl(deps: OpDeps): OfflineModelControl {
  return {
    script: (...replies) =>
      runOp(deps, (ctx) => {
        for (const reply of replies)
          if (!queueReply(ctx, reply))
            throw new ScriptFullError("The offline model's script is full: clear it or let the model answer first.");
      }),
    scripted: () => scriptedReplies(opContextOn(deps.store.read, deps.clock.now(), deps.random, deps.settings)),
    clear: () => runOp(deps, (ctx) => clearScript(ctx)),
  };
}
