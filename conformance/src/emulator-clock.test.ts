import { afterAll, describe, expect, it } from "vitest";
import { serveFakeProvider } from "./harness/serve.ts";
import { emulatorClock } from "./emulator-clock.ts";

// A fake on a real port, as the mirror meets it under `npm start`: the wall clock plus whatever the controls added.
const served = await serveFakeProvider();
afterAll(() => served.close());

describe("the emulator clock mirror", () => {
  it("reads the emulator's time, including moves made before it, and moves both together", async () => {
    served.provider.clock.advance(3_600_000);
    const clock = await emulatorClock(served.baseUrl);
    expect(Math.abs(clock.now() - served.provider.clock.now())).toBeLessThan(1_000);
    await clock.advance(600_000);
    expect(Math.abs(clock.now() - served.provider.clock.now())).toBeLessThan(1_000);
  });

  it("stands still with a frozen emulator and follows its advances exactly", async () => {
    served.provider.clock.freeze(Date.UTC(2030, 0, 1));
    try {
      const clock = await emulatorClock(served.baseUrl);
      expect(clock.now()).toBe(Date.UTC(2030, 0, 1));
      await clock.advance(20_000);
      expect([clock.now(), served.provider.clock.now()]).toEqual([
        Date.UTC(2030, 0, 1, 0, 0, 20),
        Date.UTC(2030, 0, 1, 0, 0, 20),
      ]);
    } finally {
      served.provider.clock.unfreeze();
    }
  });

  it("names the control that failed", async () => {
    await expect(emulatorClock("http://127.0.0.1:9/nowhere")).rejects.toThrow();
    const clock = await emulatorClock(served.baseUrl);
    await expect(clock.advance(-1)).rejects.toThrow(
      /POST \/__emulator\/clock\/advance answered 400: Invalid body: millis/,
    );
  });
});
