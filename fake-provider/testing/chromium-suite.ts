import { describe, it } from "vitest";
import { chromiumAvailability } from "./chromium.ts";

/**
 * A suite of browser tests in Debian's Chromium, the one rule every package's *.browser.test.ts follows: it runs when
 * /usr/bin/chromium is there; locally, without it, it is skipped (its title says why); in CI (CI=true) its absence is
 * one failing test, since .ci/run installs it and a silently skipped browser suite would pass a broken build.
 */
export function describeInChromium(title: string, body: () => void): void {
  const availability = chromiumAvailability();
  if (!availability.run && availability.fail) {
    describe(title, () => {
      it("needs Chromium in CI", () => {
        throw new Error(`CI=true but ${availability.reason}; .ci/run should have installed it.`);
      });
    });
    return;
  }
  describe.skipIf(!availability.run)(`${title}${availability.run ? "" : ` (skipped: ${availability.reason})`}`, body);
}
