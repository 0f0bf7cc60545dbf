/**
 * The budget of one analytics query's evaluation. The real service gives ClickHouse the query's `timeout_ms` as
 * max_execution_time and answers "Timeout exceeded: elapsed … ms, maximum: … ms. " when it runs out. The emulator
 * evaluates in JavaScript on the thread that serves every other request, so its budget has three parts:
 *
 * - **Work, counted as it is done** (one unit per expression node evaluated, per IN item compared, per few characters a
 *   LIKE reads): the query's timeout buys a fixed number of units, so whether a query times out depends on the query
 *   and the data, not on how busy the laptop is. That is the deterministic bound.
 * - **Wall time**, read from the monotonic `performance.now()` (not the emulator's clock, which tests move at will: the
 *   timeout is real elapsed time in the real service too), as a cap for a machine slower than the units assume.
 * - **Slices**: evaluation yields to the event loop between rows and groups every few milliseconds, so other requests
 *   are served while a long query runs; the work of one row alone (between two yields) is capped, so no single stretch
 *   can hold the thread for long.
 */

import { AnalyticsQueryError, CH } from "./analytics-errors.ts";

export { AnalyticsQueryError };

/** Units one millisecond of the query's timeout buys: about what this evaluator does per millisecond on a laptop. */
export const UNITS_PER_MS = 20_000;
/** The emulator's own cap on a query's evaluation, whatever its timeout_ms (the contract allows up to 120 s). */
export const SERVER_CAP_MS = 30_000;
/** Work one row (or one group's projection) may take between two yields: a few tens of milliseconds at most. */
export const MAX_SLICE_UNITS = 1_000_000;
/** Rows one query may hold at once (ClickHouse's max_memory_usage, in rows). */
export const MAX_RETAINED_ROWS = 2_000_000;
/** How long evaluation runs before yielding to other requests. */
const SLICE_MS = 8;
/** Units between two reads of the wall clock (a read costs more than a unit). */
const CLOCK_EVERY = 4_096;

export type Monotonic = () => number;

export class QueryBudget {
  private readonly started: number;
  private readonly limitMs: number;
  private readonly maxUnits: number;
  private units = 0;
  private retained = 0;
  private sliceUnits = 0;
  private sliceStarted: number;
  private nextClockRead = CLOCK_EVERY;

  /** Started when the query arrives: parsing it counts, as it does in ClickHouse's execution time. */
  constructor(
    timeoutMs: number,
    private readonly now: Monotonic = () => performance.now(),
  ) {
    this.limitMs = Math.min(timeoutMs, SERVER_CAP_MS);
    this.maxUnits = this.limitMs * UNITS_PER_MS;
    this.started = now();
    this.sliceStarted = this.started;
  }

  /** Counts work; throws the timeout once the query's units or wall time are spent, or a row's slice is too long. */
  charge(units: number): void {
    this.units += units;
    this.sliceUnits += units;
    if (this.units > this.maxUnits) this.timeout();
    if (this.sliceUnits > MAX_SLICE_UNITS) {
      throw new AnalyticsQueryError(
        `Estimated query execution time is too long: one row needs more than ${MAX_SLICE_UNITS} steps, more than authsim's analytics emulation evaluates without letting other requests through`,
        CH.TOO_SLOW,
      );
    }
    if (this.units >= this.nextClockRead) {
      this.nextClockRead = this.units + CLOCK_EVERY;
      if (this.now() - this.started > this.limitMs) this.timeout();
    }
  }

  /**
   * ClickHouse's sleep(): the time it asks for is spent from the budget as work would be, not waited for (a query's
   * answer never depends on the laptop's speed), so a sleep past the timeout ends the query with the timeout.
   */
  sleep(ms: number): void {
    // Counted against the timeout only: a sleep holds no thread, so it is no row's long stretch of work.
    this.units += Math.ceil(ms * UNITS_PER_MS);
    if (this.units > this.maxUnits) this.timeout();
  }

  /**
   * Counts rows the query holds at once (kept by WHERE, grouped, projected): past MAX_RETAINED_ROWS it stops with
   * ClickHouse's memory limit, so a generated table (numbers(n)) cannot fill the laptop's memory before its time runs out.
   */
  retain(rows: number): void {
    this.retained += rows;
    if (this.retained > MAX_RETAINED_ROWS)
      throw new AnalyticsQueryError(
        `Query memory limit exceeded: would use more than the ${MAX_RETAINED_ROWS} rows authsim's analytics emulation holds for one query`,
        CH.MEMORY_LIMIT_EXCEEDED,
      );
  }

  /** Between rows: lets other requests in when this slice has run long enough; throws if the time is up. */
  async checkpoint(): Promise<void> {
    const now = this.now();
    if (now - this.started > this.limitMs) this.timeout();
    if (now - this.sliceStarted < SLICE_MS) {
      this.sliceUnits = 0;
      return;
    }
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.sliceStarted = this.now();
    this.sliceUnits = 0;
  }

  private timeout(): never {
    // Elapsed as the work stands for it, or as measured when that is longer: the same query reads the same either way
    // on a fast machine.
    const elapsed = Math.max(this.now() - this.started, this.units / UNITS_PER_MS);
    throw new AnalyticsQueryError(
      `Timeout exceeded: elapsed ${elapsed.toFixed(3)} ms, maximum: ${this.limitMs} ms`,
      CH.TIMEOUT_EXCEEDED,
    );
  }
}
