import { CONTROL_PREFIX } from "@authsim/fake-provider";
import { systemClock, type Clock } from "@authsim/sdk/runtime";

/**
 * A clock the SDK shares with the provider: time moves for both at once, so a case can watch the SDK act on what it
 * knows of a token's lifetime (the 20 s freshness window of spec §9, client-side key expiry) without real time passing.
 */
export interface SharedClock extends Clock {
  /** Moves the provider's clock and this one by the same amount. */
  advance(millis: number): Promise<void>;
}

/** What GET /__emulator/clock and POST /__emulator/clock/advance answer. */
interface ClockView {
  now_millis: number;
  frozen: boolean;
}

function isClockView(value: unknown): value is ClockView {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.now_millis === "number" && typeof v.frozen === "boolean";
}

/**
 * The clock of a fake reached by URL, mirrored for the SDK. The SDK reads `now()` synchronously and the emulator's
 * time lives behind HTTP, so this keeps the time the emulator last reported and carries it forward by the wall clock
 * (the emulator's own base) unless the emulator is frozen. Each `advance` posts to the emulator and takes the time it
 * answers, so the mirror also catches up with moves made by anyone else before it.
 *
 * The emulator has one clock for every project and client: advancing it ages every token it issued. That is safe
 * here because a target's cases run one after another (vitest runs a file's tests in sequence, and the runner runs
 * one file) and each case makes its own users; it would not be with cases running concurrently on one emulator.
 */
export async function emulatorClock(baseUrl: string): Promise<SharedClock> {
  let view: ClockView = { now_millis: systemClock.now(), frozen: false };
  let readAtMillis = systemClock.now();
  const exchange = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${baseUrl}${CONTROL_PREFIX}${path}`, init);
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok || !isClockView(body)) throw new Error(`Clock control ${path} failed: ${response.status} ${JSON.stringify(body)}`);
    view = body;
    readAtMillis = systemClock.now();
  };
  await exchange("/clock");
  return {
    now: () => (view.frozen ? view.now_millis : view.now_millis + (systemClock.now() - readAtMillis)),
    advance: (millis) =>
      exchange("/clock/advance", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ millis }) }),
  };
}
