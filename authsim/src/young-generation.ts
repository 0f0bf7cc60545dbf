import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/**
 * Keeps V8's young generation near `targetMiB` in a running process. Its cap (--max-semi-space-size) is read only at
 * start-up, from the command line, which `npx authsim` does not give; but how much it grows at each step
 * (--semi-space-growth-factor) is read whenever it grows. So this lets it grow (factor 2) while it is below the target
 * and stops it (factor 1) once it is there; V8 still shrinks it when idle, and it grows again after. Under load the
 * young generation otherwise doubles up to 32 MiB, a fifth of the dev server's RSS, for no gain a dev server needs.
 * Checked after each collection (it grows at collections, several in a second under load); the observer does not keep
 * the process alive.
 */
export function capYoungGeneration(targetMiB: number): void {
  let factor = 2;
  const check = () => {
    const size = getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
    const wanted = size >= targetMiB * 1024 * 1024 ? 1 : 2;
    if (wanted !== factor) {
      factor = wanted;
      setFlagsFromString(`--semi-space-growth-factor=${factor}`);
    }
  };
  check();
  new PerformanceObserver(check).observe({ entryTypes: ["gc"] });
}
