/**
 * What state costs: the dev server's RSS idle and after 10,000 users (over loopback), and, in process, the live heap
 * one user, one session, one email and one request-log entry hold (after a full GC; the bench runs with --expose-gc).
 */
import { createFakeProvider, type FakeProvider } from "@authsim/fake-provider";
import { keepAliveAgent, send } from "./http-load.ts";
import { otpRequest, projectRequest, serverHeaders, signInRequest, signUpRequest, PASSWORD } from "./scenarios.ts";
import { statsOf, type DevServer } from "./server.ts";

/** Creates `count` users with a password through POST /users (server key), 50 at a time; then the server's RSS. */
export async function rssAfterUsers(server: DevServer, count: number): Promise<{ rss: number; peak: number }> {
  const agent = keepAliveAgent(50);
  const base = new URL(server.base);
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < count) {
        const i = next++;
        const body = JSON.stringify({
          primary_email: `m${i}@bench.test`,
          display_name: `User ${i}`,
          primary_email_auth_enabled: true,
          password: PASSWORD,
        });
        const answer = await send(agent, base, { method: "POST", path: "/api/v1/users", headers: serverHeaders, body });
        if (answer.status !== 201) throw new Error(`create user ${answer.status}: ${answer.body.slice(0, 200)}`);
      }
    }),
  );
  agent.destroy();
  const s = statsOf(server.child.pid);
  return { rss: s?.rss ?? NaN, peak: s?.peak ?? NaN };
}

const gc = (): void => {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
};

async function call(
  provider: FakeProvider,
  path: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<number> {
  const response = await provider.fetch(`http://bench${path}`, init);
  await response.arrayBuffer();
  return response.status;
}

/** Live heap bytes per repetition of `step` (run `count` times, 8 at a time), after a full GC before and after. */
async function heapPer(count: number, step: (i: number) => Promise<void>): Promise<number> {
  gc();
  const before = process.memoryUsage().heapUsed;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) await step(next++);
    }),
  );
  gc();
  return (process.memoryUsage().heapUsed - before) / count;
}

export interface RecordCosts {
  user: number;
  session: number;
  email: number;
  logEntry: number;
}

/** Bytes of live heap per record kind, in process. Needs --expose-gc (NaN-free but meaningless without it). */
export async function recordCosts(count = 4000): Promise<RecordCosts> {
  // A one-entry request log so the log does not count towards the state figures; then a large one for its own figure.
  const provider = createFakeProvider({ requestLogCapacity: 1, outboxCapacity: 10 * count });
  const post = (req: { path: string; headers: Record<string, string>; body?: string }) =>
    call(provider, req.path, { method: "POST", headers: req.headers, ...(req.body ? { body: req.body } : {}) });
  // A sign-up makes a user and a session; a sign-in another session of the same user.
  const signUpBytes = await heapPer(count, async (i) => {
    if ((await post(signUpRequest(`mem-${i}@bench.test`))) !== 200) throw new Error("sign-up failed");
  });
  const session = await heapPer(count, async (i) => {
    if ((await post(signInRequest(`mem-${i}@bench.test`))) !== 200) throw new Error("sign-in failed");
  });
  const email = await heapPer(count, async (i) => {
    if ((await post(otpRequest(`mem-otp-${i}@bench.test`))) !== 200) throw new Error("send-sign-in-code failed");
  });
  const logged = createFakeProvider({ requestLogCapacity: 2 * count });
  const logEntry = await heapPer(count, async () => {
    if ((await call(logged, projectRequest.path, { method: "GET", headers: projectRequest.headers })) !== 200)
      throw new Error("projects/current failed");
  });
  return { user: signUpBytes - session, session, email, logEntry };
}
