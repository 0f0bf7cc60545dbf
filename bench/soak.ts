/**
 * The mixed soak of issue 14: 50 connections against a fresh dev server for BENCH_SOAK_SECONDS (default 120) of
 * sign-up, sign-in, refresh, reads and emailed sign-in codes (each one email in the outbox), sampling the server's
 * RSS every second. Reports RSS at the start, the peak, the end, how much it grew over the last minute (or the last
 * half of a shorter soak), the outbox size and what the load cost in CPU; and that nothing was lost (issue 10): every
 * user a sign-up created is listed by the server API. Figures only.
 */
import { performance } from "node:perf_hooks";
import { keepAliveAgent, send, type Answer, type BenchRequest } from "./http-load.ts";
import {
  meRequest,
  otpRequest,
  projectRequest,
  refreshRequest,
  serverHeaders,
  signInRequest,
  signUpRequest,
} from "./scenarios.ts";
import { statsOf, type DevServer } from "./server.ts";

/** One cycle of a connection: about an app's traffic, mostly reads and refreshes, and one email (weights 1:2:2:4:1). */
type Op = "sign-up" | "sign-in" | "refresh" | "me" | "project" | "email";
const CYCLE: readonly Op[] = [
  "sign-up",
  "me",
  "refresh",
  "project",
  "sign-in",
  "me",
  "email",
  "refresh",
  "me",
  "sign-in",
];

export interface SoakResult {
  seconds: number;
  requests: number;
  errors: number;
  firstError: string | null;
  rssStart: number;
  rssPeak: number;
  rssEnd: number;
  /** RSS at the end minus RSS at the start of the last minute (or last half). */
  lastWindowGrowth: number;
  lastWindowSeconds: number;
  outboxSize: number;
  outboxDropped: number;
  cpuMillisPerRequest: number;
  usersCreated: number;
  /** Users a sign-up answered for that the server's user list does not hold (0 when nothing was lost). */
  usersMissing: number;
}

export async function soak(server: DevServer, seconds: number, connections = 50): Promise<SoakResult> {
  const agent = keepAliveAgent(connections);
  const base = new URL(server.base);
  const pid = server.child.pid;
  let requests = 0;
  let errors = 0;
  let firstError: string | null = null;
  const created = new Set<string>();
  const call = async (req: BenchRequest): Promise<Record<string, unknown> | null> => {
    requests++;
    try {
      const answer: Answer = await send(agent, base, req);
      if (answer.status >= 200 && answer.status < 300) return JSON.parse(answer.body) as Record<string, unknown>;
      firstError ??= `${req.path}: ${answer.status} ${answer.body.slice(0, 160)}`;
    } catch (error) {
      firstError ??= `${req.path}: ${String(error)}`;
    }
    errors++;
    return null;
  };

  const start = statsOf(pid);
  const samples: { at: number; rss: number }[] = [];
  const started = performance.now();
  const sampler = setInterval(() => {
    const s = statsOf(pid);
    if (s) samples.push({ at: (performance.now() - started) / 1000, rss: s.rss });
  }, 1000);
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, id) => {
      const emails: string[] = [];
      let session: { access: string; refresh: string } | null = null;
      for (let i = 0; performance.now() < deadline; i++) {
        const op = CYCLE[(i + id) % CYCLE.length]!;
        if (op === "sign-up" || !session) {
          const email = `soak-${id}-${emails.length}@bench.test`;
          const body = await call(signUpRequest(email));
          if (body) {
            created.add(String(body.user_id));
            emails.push(email);
            session = { access: String(body.access_token), refresh: String(body.refresh_token) };
          }
        } else if (op === "sign-in") {
          const body = await call(signInRequest(emails[i % emails.length]!));
          if (body) session = { access: String(body.access_token), refresh: String(body.refresh_token) };
        } else if (op === "refresh") {
          const body = await call(refreshRequest(session.refresh));
          if (body) session = { access: String(body.access_token), refresh: session.refresh };
        } else if (op === "me") await call(meRequest(session.access));
        else if (op === "project") await call(projectRequest);
        else await call(otpRequest(`soak-otp-${id}-${i}@bench.test`)); // an address with no account: an OTP to one with an unverified account is refused
      }
    }),
  );
  clearInterval(sampler);
  const elapsed = (performance.now() - started) / 1000;
  const end = statsOf(pid);
  const outbox = JSON.parse(
    (await send(agent, base, { method: "GET", path: "/__emulator/outbox", headers: {} })).body,
  ) as { items: unknown[]; dropped: number };
  const listed = new Set<string>();
  let cursor: string | null = null;
  for (let page = 0; page < 10_000; page++) {
    const answer = await send(agent, base, {
      method: "GET",
      path: `/api/v1/users?limit=1000${cursor ? `&cursor=${cursor}` : ""}`,
      headers: serverHeaders,
    });
    const body = JSON.parse(answer.body) as { items: { id: string }[]; pagination?: { next_cursor: string | null } };
    for (const user of body.items) listed.add(user.id);
    cursor = body.pagination?.next_cursor ?? null;
    if (!cursor) break;
  }
  agent.destroy();

  const window = Math.min(60, elapsed / 2);
  const windowStart = samples.find((s) => s.at >= elapsed - window) ?? samples[0];
  return {
    seconds: elapsed,
    requests,
    errors,
    firstError,
    rssStart: start?.rss ?? NaN,
    rssPeak: end?.peak ?? NaN,
    rssEnd: end?.rss ?? NaN,
    lastWindowGrowth: (end?.rss ?? NaN) - (windowStart?.rss ?? NaN),
    lastWindowSeconds: window,
    outboxSize: outbox.items.length,
    outboxDropped: outbox.dropped,
    cpuMillisPerRequest: start && end ? ((end.cpuSeconds - start.cpuSeconds) * 1000) / Math.max(1, requests) : NaN,
    usersCreated: created.size,
    usersMissing: [...created].filter((id) => !listed.has(id)).length,
  };
}
