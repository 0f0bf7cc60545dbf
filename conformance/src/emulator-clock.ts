import { controlClient, type ControlAnswer } from "@authsim/sdk/emulator";
import { systemClock, type Clock } from "@authsim/sdk/runtime";

/**
 * A clock the SDK shares with the provider: time moves for both at once, so a case can watch the SDK act on what it
 * knows of a token's lifetime (the 20 s freshness window of spec §9, client-side key expiry) without real time passing.
 */
export interface SharedClock extends Clock {
  /** Moves the provider's clock and this one by the same amount. */
  advance(millis: number): Promise<void>;
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
  const control = controlClient({ baseUrl });
  let view: ControlAnswer<"clock"> = { now_millis: systemClock.now(), frozen: false };
  let readAtMillis = systemClock.now();
  // Each answer (checked against the control contract) becomes the mirror's new reading.
  const read = (answer: ControlAnswer<"clock">) => {
    view = answer;
    readAtMillis = systemClock.now();
  };
  read(await control.call("clock"));
  return {
    now: () => (view.frozen ? view.now_millis : view.now_millis + (systemClock.now() - readAtMillis)),
    advance: async (millis) => read(await control.call("advanceClock", { body: { millis } })),
  };
}
