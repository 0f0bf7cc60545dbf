/**
 * What a hostile page could do to the dev server (issue 31), measured: the worst latency of ordinary requests while
 * templates that loop until their 5 s deadline render (previews and queued emails), and a 100 MB body's refusal.
 */
import { performance } from "node:perf_hooks";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { upload } from "../authsim/src/test-support/upload.ts";
import { statsOf, type DevServer } from "./server.ts";

const LOOP = "export function EmailTemplate() { for (;;) {} }";
const FINE =
  'import { Subject } from "@stackframe/emails";\nexport function EmailTemplate() { return <><Subject value="Hi" /><p>Hi</p></>; }';
const keys = { "x-stack-project-id": dev.id, "x-stack-publishable-client-key": dev.keys.publishable_client_key };
const admin = {
  ...keys,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": dev.keys.super_secret_admin_key,
  "content-type": "application/json",
};
const server = {
  ...keys,
  "x-stack-access-type": "server",
  "x-stack-secret-server-key": dev.keys.secret_server_key,
  "content-type": "application/json",
};

export interface RenderAttack {
  /** GET /api/v1 answers timed while the attack ran. */
  probes: number;
  worstMillis: number;
  p99Millis: number;
  medianMillis: number;
  /** Looping renders that ended (each in EMAIL_RENDERING_ERROR or a render-error entry) meanwhile. */
  loopsEnded: number;
}

async function call(
  base: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  method = "POST",
): Promise<Response> {
  return fetch(`${base}/api/v1${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/**
 * For `seconds`: two attackers each send a looping preview (POST /emails/render-email) after another, a third queues
 * looping emails (send-email from a draft, rendered by the queue's step), and a prober times GET /api/v1 every 20 ms.
 */
export async function renderAttack(dev: DevServer, seconds: number): Promise<RenderAttack> {
  const base = dev.base;
  // Warm: the engine's first start is not what is measured.
  await (await call(base, "/emails/render-email", admin, { template_tsx_source: FINE, theme_id: false })).text();
  const smtp = {
    type: "standard",
    host: "smtp.example.com",
    port: 587,
    username: "u",
    password: "p",
    sender_name: "Dev",
    sender_email: "noreply@example.com",
  };
  await (await call(base, "/internal/projects/current", admin, { config: { email_config: smtp } }, "PATCH")).text();
  const user = (await (await call(base, "/users", server, { primary_email: "attacked@example.com" })).json()) as {
    id: string;
  };
  const draft = (await (await call(base, "/internal/email-drafts", admin, { display_name: "Loop" })).json()) as {
    id: string;
  };
  await (
    await call(base, `/internal/email-drafts/${draft.id}`, admin, { tsx_source: LOOP, theme_id: false }, "PATCH")
  ).text();

  const until = performance.now() + seconds * 1000;
  let loopsEnded = 0;
  const attacker = async (send: () => Promise<Response>) => {
    while (performance.now() < until) {
      await (await send()).text();
      loopsEnded++;
    }
  };
  const latencies: number[] = [];
  const prober = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      await (await fetch(`${base}/api/v1`)).text();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await Promise.all([
    attacker(() => call(base, "/emails/render-email", admin, { template_tsx_source: LOOP, theme_id: false })),
    attacker(() => call(base, "/emails/render-email", admin, { template_tsx_source: LOOP, theme_id: false })),
    attacker(async () => {
      const answer = await call(base, "/emails/send-email", server, { user_ids: [user.id], draft_id: draft.id });
      // The queue renders it a second later, in the background: pace the queueing by the render deadline.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return answer;
    }),
    prober(),
  ]);
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    probes: sorted.length,
    worstMillis: sorted.at(-1) ?? NaN,
    p99Millis: at(0.99),
    medianMillis: at(0.5),
    loopsEnded,
  };
}

export interface BodyAttack {
  status: number;
  /** From the request's start to the answer's headers. */
  declaredMillis: number;
  chunkedMillis: number;
  /** The server's RSS before, and at its highest meanwhile (MiB). */
  rssStart: number;
  rssPeak: number;
}

/** A 100 MB body to sign-in, with a Content-Length and then chunked, sampling the server's RSS every 5 ms. */
export async function bodyAttack(dev: DevServer): Promise<BodyAttack> {
  const url = `${dev.base}/api/v1/auth/password/sign-in`;
  const headers = { ...keys, "x-stack-access-type": "client" };
  const rssStart = statsOf(dev.child.pid)?.rss ?? NaN;
  let rssPeak = rssStart;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, statsOf(dev.child.pid)?.rss ?? NaN)), 5);
  try {
    const declared = await upload(url, 100 * 1000 * 1000, true, headers);
    const chunked = await upload(url, 100 * 1000 * 1000, false, headers);
    return {
      status: declared.status,
      declaredMillis: declared.millis,
      chunkedMillis: chunked.millis,
      rssStart,
      rssPeak,
    };
  } finally {
    clearInterval(sampler);
  }
}
