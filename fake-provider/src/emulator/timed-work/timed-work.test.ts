import { afterEach, describe, expect, it } from "vitest";
import { controlClient } from "@authsim/sdk/emulator";
import {
  DEV,
  ORIGIN,
  START_MILLIS,
  api,
  expectJson,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../test-support/api.ts";
import { useSmtp } from "../../test-support/admin.ts";

/** One rule for timed work (docs/emulator.md, "Timed work"): right-away work needs no emulator time; later work waits for its instant. */

const GRACE = 1_000;
let provider: TestProvider;
afterEach(() => {
  provider.work.stop();
  expect(provider.unexpected).toEqual([]);
});

const control = () => controlClient({ baseUrl: ORIGIN, fetch: provider.fetch });
const sendEmail = async (json: Record<string, unknown>) =>
  expectJson(await api(provider, "/emails/send-email", { headers: server(), json }));

describe("right-away work", () => {
  it("with the clock frozen, a custom email reaches the outbox without the clock moving (the queue has no grace then)", async () => {
    provider = newProvider({ emailQueueDelayMillis: GRACE, frozenAtMillis: START_MILLIS });
    await useSmtp(provider);
    const user = await signUp(provider);
    await sendEmail({ user_ids: [user.user_id], html: "<p>Hi</p>", subject: "Frozen" });
    // No request after send-email, no clock move: the queue drains once send-email has answered.
    const email = await provider.outbox.waitFor({ to: user.email, kind: "custom" }, { timeoutMs: 30_000 });
    expect(email.subject).toBe("Frozen");
    expect(provider.clock.now()).toBe(START_MILLIS);
  });

  it("runs what is due now on request (POST /work/run), and the view shows it waiting before", async () => {
    provider = newProvider({ emailQueueDelayMillis: GRACE });
    await useSmtp(provider);
    const user = await signUp(provider);
    await sendEmail({ user_ids: [user.user_id], html: "<p>Hi</p>", subject: "Later" });
    expect((await control().call("work")).items).toEqual([
      { kind: "email-queue", what: "queued email", count: 1, due_at_millis: START_MILLIS + GRACE },
    ]);
    // Not due yet (the grace counts on the clock, which has not moved): running what is due leaves it.
    expect((await control().call("runDueWork")).items).toHaveLength(1);
    expect(provider.outbox.list({ to: user.email, kind: "custom" })).toEqual([]);
    // The outbox lists it as queued, with its state and when it is due.
    expect((await control().call("queuedEmails")).items).toEqual([
      {
        id: expect.any(String),
        projectId: DEV.id,
        to: [],
        subject: null,
        status: "preparing",
        dueAtMillis: START_MILLIS + GRACE,
      },
    ]);
  });
});

describe("work due at a later instant", () => {
  it("clock/advance runs what became due before it answers: the queue's grace, then nothing waits", async () => {
    provider = newProvider({ emailQueueDelayMillis: GRACE });
    await useSmtp(provider);
    const user = await signUp(provider);
    await sendEmail({ user_ids: [user.user_id], html: "<p>Hi</p>", subject: "Advanced" });
    await control().call("advanceClock", { body: { millis: GRACE - 1 } });
    expect(provider.outbox.list({ to: user.email, kind: "custom" })).toEqual([]);
    await control().call("advanceClock", { body: { millis: 1 } });
    // Read in process, with no request in between: the advance answered after the email was rendered.
    expect(provider.outbox.list({ to: user.email, kind: "custom" }).map((e) => e.subject)).toEqual(["Advanced"]);
    expect((await control().call("work")).items).toEqual([]);
  });

  it("a scheduled email arrives exactly when the clock passes its instant, and is listed as waiting for it until then", async () => {
    provider = newProvider({ frozenAtMillis: START_MILLIS });
    await useSmtp(provider);
    const user = await signUp(provider);
    const at = START_MILLIS + 60_000;
    await sendEmail({ user_ids: [user.user_id], html: "<p>Hi</p>", subject: "Scheduled", scheduled_at_millis: at });
    expect((await control().call("work")).items).toEqual([
      { kind: "scheduled-email", what: "scheduled email", count: 1, due_at_millis: at },
    ]);
    expect((await control().call("queuedEmails")).items).toMatchObject([
      { to: [user.email], subject: "Scheduled", status: "scheduled", dueAtMillis: at },
    ]);
    await control().call("advanceClock", { body: { millis: 59_999 } });
    expect(provider.outbox.list({ to: user.email, kind: "custom" })).toEqual([]);
    await control().call("advanceClock", { body: { millis: 1 } });
    expect(provider.outbox.list({ to: user.email, kind: "custom" }).map((e) => e.subject)).toEqual(["Scheduled"]);
    expect((await control().call("work")).items).toEqual([]);
  });
});
