import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRequestLog, type RequestLogEntry } from "./request-log.ts";

const entry = (path: string): Omit<RequestLogEntry, "seq"> => ({
  method: "GET",
  path,
  query: "",
  projectId: null,
  accessType: null,
  userId: null,
  operationId: null,
  status: 200,
  knownError: null,
  atMillis: 0,
  durationMillis: 0,
  why: [],
  fromDashboard: false,
});

describe("request log, any capacity and any run of records and clears", () => {
  it("lists the last `capacity` entries since the last clear, oldest first, and counts the dropped", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.oneof(fc.constant("clear" as const), fc.constant("record" as const)), { maxLength: 40 }),
        (capacity, steps) => {
          const log = createRequestLog(capacity);
          let sinceClear: string[] = [];
          steps.forEach((step, i) => {
            if (step === "clear") {
              log.clear();
              sinceClear = [];
            } else {
              log.record(entry(`/p${i}`));
              sinceClear.push(`/p${i}`);
            }
          });
          expect(log.list().map((e) => e.path)).toEqual(sinceClear.slice(-capacity));
          expect(log.dropped).toBe(Math.max(0, sinceClear.length - capacity));
        },
      ),
    );
  });
});
