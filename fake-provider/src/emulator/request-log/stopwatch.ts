/**
 * Real elapsed time, for the request log's duration column only. Deliberately not the provider's clock: a frozen or
 * advanced emulated clock says nothing about how long a request took, and no decision ever reads this value.
 */
export function stopwatch(): () => number {
  const start = performance.now();
  return () => Math.round((performance.now() - start) * 100) / 100;
}
