import type { Store } from "../domain/store/store.ts";

/**
 * Waits for the first committed state in which `find` finds something, up to `timeoutMs` of real time (waiting is about
 * the test's patience, not the emulated clock): what the outbox's and the webhooks' `waitFor` share.
 */
export function waitForCommit<T>(
  store: Store,
  find: () => T | undefined,
  timeoutMs: number,
  timeoutError: () => Error,
): Promise<T> {
  const found = find();
  if (found !== undefined) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const stop = store.onCommit(() => {
      const value = find();
      if (value === undefined) return;
      stop();
      clearTimeout(timer);
      resolve(value);
    });
    const timer = setTimeout(() => {
      stop();
      reject(timeoutError());
    }, timeoutMs);
  });
}
