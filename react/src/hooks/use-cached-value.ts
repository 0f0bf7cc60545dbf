import { use, useSyncExternalStore } from "react";
import type { CacheSnapshot, CachedValue } from "@authsim/sdk";

/** A promise carrying React's thenable fields, so use() reads a settled value synchronously instead of suspending. */
type Thenable<T> = Promise<T> & { status?: string; value?: T; reason?: unknown };

function settled<T>(snapshot: CacheSnapshot<T>): Promise<T> {
  const promise = snapshot.promise as Thenable<T>;
  if (snapshot.status === "ok" && promise.status !== "fulfilled")
    Object.assign(promise, { status: "fulfilled", value: snapshot.value });
  if (snapshot.status === "error" && promise.status !== "rejected")
    Object.assign(promise, { status: "rejected", reason: snapshot.error });
  return promise;
}

/**
 * Reads an SDK cache (spec §9) through useSyncExternalStore: re-renders when the value changes, suspends (Suspense)
 * while the first load is pending, and throws a failed load to the nearest error boundary. use() is called on every
 * render (React requires a component that suspended with use() to call it again when it finishes).
 */
export function useCachedValue<T>(cached: CachedValue<T>): T {
  const snapshot = useSyncExternalStore(cached.subscribe, cached.getSnapshot, cached.getSnapshot);
  return use(settled(snapshot));
}
