import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import type { CryptoBackend } from "@authsim/fake-provider";

type Jwk = Parameters<CryptoBackend["signEs256"]>[0];

/**
 * ES256 signatures on a thread of their own, for the dev server. Access tokens are signed after their transaction
 * commits (fake-provider's UnsignedAccessToken), so a signature need not be made on the main thread: under load the
 * main thread spent a third of a token refresh signing, at three to five times the cost of a signature made in a
 * tight loop (the request work in between evicts OpenSSL's tables from the cache). Here signatures go to the thread in
 * batches, one batch at a time: those asked for while the thread signs the previous batch go in the next message, so
 * the busier the server the fewer messages a signature (a message costs the main thread more than a signature's share
 * of a batch); the thread, doing nothing else, signs at the tight-loop cost.
 *
 * Started on the first signature (a server that mints no token never starts it) and unreferenced, so it keeps no
 * process alive; stopped after `idleMillis` without one, as a thread holds some 20 MB (its own V8 heap), which a dev
 * server at rest should give back. If the thread fails, its pending signatures are refused and later ones are made on
 * the main thread by `fallback`.
 */
export interface SigningThread {
  signEs256(privateJwk: Jwk, signingInput: string): Promise<Uint8Array>;
  /** Stops the thread (pending signatures are refused); the next signature starts another. */
  close(): Promise<void>;
  /** Whether a thread is running now. */
  readonly running: boolean;
}

/** One batch: the keys the thread has not seen yet, then the signing inputs, each with its key's number. */
interface Batch {
  keys: [number, Jwk][];
  keyIds: number[];
  inputs: string[];
}
interface Pending {
  resolve(signature: Uint8Array): void;
  reject(error: unknown): void;
}
/** The thread's answer to a batch, in order: 64 bytes a signature, and why any of them could not be made. */
interface Reply {
  signatures: Uint8Array;
  failures: [index: number, message: string][];
}

/**
 * The thread's program (CommonJS, evaluated: nothing to bundle or resolve at run time). Keys are imported once by
 * number; a dropped number frees its key. A key that cannot be imported fails only the signatures that use it.
 */
const threadSource = `
const { parentPort } = require("node:worker_threads");
const { createPrivateKey, sign } = require("node:crypto");
const keys = new Map();
const messageOf = (error) => String((error && error.message) || error);
parentPort.on("message", (message) => {
  if (message.drop !== undefined) return void keys.delete(message.drop);
  for (const [id, jwk] of message.keys) {
    try {
      keys.set(id, createPrivateKey({ key: jwk, format: "jwk" }));
    } catch (error) {
      keys.set(id, messageOf(error));
    }
  }
  const signatures = new Uint8Array(64 * message.inputs.length);
  const failures = [];
  for (let i = 0; i < message.inputs.length; i++) {
    const key = keys.get(message.keyIds[i]);
    try {
      if (typeof key === "string") throw new Error(key);
      signatures.set(sign("sha256", Buffer.from(message.inputs[i], "latin1"), { key, dsaEncoding: "ieee-p1363" }), 64 * i);
    } catch (error) {
      failures.push([i, messageOf(error)]);
    }
  }
  parentPort.postMessage({ signatures, failures }, [signatures.buffer]);
});
`;

export function signingThread(
  fallback: CryptoBackend["signEs256"],
  options: { idleMillis?: number } = {},
): SigningThread {
  const idleMillis = options.idleMillis ?? 30_000;
  let worker: Worker | null = null;
  /** When the thread was last given work (performance.now(): the process's time, not the emulator's clock). */
  let lastUsed = 0;
  let failed = false;
  /** Numbers of the keys the current thread holds, by the record's JWK object (a restored state brings new objects). */
  let keyIds = new WeakMap<Jwk, number>();
  let nextKeyId = 0;
  /** The signatures asked for since the last message, and their callers. */
  let batch: Batch | null = null;
  let batchPending: Pending[] = [];
  let flushScheduled = false;
  /** The batch the thread is signing: one at a time, so what is asked meanwhile goes in the next message. */
  let inFlight: Pending[] | null = null;
  // A key's number is dropped on the thread once its JWK object is collected (the state that held it is gone).
  const dropped = new FinalizationRegistry<{ id: number; thread: Worker }>(({ id, thread }) => {
    if (thread === worker) thread.postMessage({ drop: id });
  });

  const refuseAll = (error: unknown) => {
    const pending = [...(inFlight ?? []), ...batchPending];
    inFlight = null;
    batch = null;
    batchPending = [];
    for (const p of pending) p.reject(error);
  };

  /** Sends the waiting batch, unless the thread is still on the previous one (its answer sends this one). */
  const flush = () => {
    flushScheduled = false;
    if (inFlight || !batch) return;
    if (!worker) return refuseAll(new Error("signing thread stopped"));
    lastUsed = performance.now();
    worker.postMessage(batch);
    inFlight = batchPending;
    batch = null;
    batchPending = [];
  };

  /** Stops the thread once it has had no work for idleMillis (checked when the time would be up, so no timer a batch). */
  const stopWhenIdle = (thread: Worker) => {
    const check = () => {
      if (worker !== thread) return;
      const idleFor = performance.now() - lastUsed;
      if (idleFor < idleMillis || inFlight || batch) setTimeout(check, Math.max(idleMillis - idleFor, 1)).unref();
      else {
        worker = null;
        void thread.terminate();
      }
    };
    setTimeout(check, idleMillis).unref();
  };

  const start = (): Worker => {
    // A small heap: the thread holds keys and one batch at a time.
    const thread = new Worker(threadSource, {
      eval: true,
      name: "authsim ES256 signing",
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    thread.unref();
    stopWhenIdle(thread);
    thread.on("message", (reply: Reply) => {
      const pending = inFlight ?? [];
      inFlight = null;
      const failures = new Map(reply.failures);
      for (let i = 0; i < pending.length; i++) {
        const why = failures.get(i);
        if (why === undefined) pending[i]!.resolve(reply.signatures.subarray(64 * i, 64 * i + 64));
        else pending[i]!.reject(new Error(`ES256 signature refused: ${why}`));
      }
      flush();
    });
    // Only the current thread's failure concerns the waiting signatures: a thread stopped on purpose (idle, close) may
    // exit after its successor has taken new ones.
    thread.on("error", (error) => {
      if (worker !== thread) return;
      failed = true;
      worker = null;
      refuseAll(error);
    });
    thread.on("exit", () => {
      if (worker !== thread) return;
      worker = null;
      refuseAll(new Error("signing thread stopped"));
    });
    keyIds = new WeakMap();
    return thread;
  };

  return {
    signEs256(privateJwk, signingInput) {
      if (failed) return Promise.resolve(fallback(privateJwk, signingInput));
      worker ??= start();
      batch ??= { keys: [], keyIds: [], inputs: [] };
      if (!inFlight && !flushScheduled) {
        // The other signatures asked for in this turn of the event loop go in the same message.
        flushScheduled = true;
        setImmediate(flush);
      }
      let id = keyIds.get(privateJwk);
      if (id === undefined) {
        id = nextKeyId++;
        keyIds.set(privateJwk, id);
        const { kty, crv, x, y, d } = privateJwk;
        batch.keys.push([id, { kty, crv, x, y, d }]);
        dropped.register(privateJwk, { id, thread: worker });
      }
      batch.keyIds.push(id);
      batch.inputs.push(signingInput);
      return new Promise((resolve, reject) => batchPending.push({ resolve, reject }));
    },
    get running() {
      return worker !== null;
    },
    async close() {
      const thread = worker;
      worker = null;
      refuseAll(new Error("signing thread stopped"));
      if (thread) await thread.terminate();
    },
  };
}
