import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { setFlagsFromString } from "node:v8";
import { serve, type HttpBindings, type Http2Bindings } from "@hono/node-server";
import { devProjectSeed, loadFixture, type LoadReport } from "@authsim/fixtures";
import { seededRandom } from "@authsim/sdk/runtime";
import { controlEndpoints } from "@authsim/sdk/emulator";
import {
  CONTROL_PREFIX,
  createFakeProvider,
  createMockOAuthServer,
  defaultSeed,
  DEV_SERVER_EMAIL_QUEUE_DELAY_MILLIS,
  inbucketFetch,
  purchasePortFetch,
  storagePortFetch,
  STORAGE_PREFIX,
  SVIX_PREFIX,
  svixPortFetch,
  type ProviderSnapshot,
} from "@authsim/fake-provider";
import { DETERMINISTIC_START_MILLIS, devPortsEnv, envLines, parseCliArgs } from "./cli-args.ts";
import { fixtureState, startupRefusal, stateRefusal, storeState } from "./cli-safety.ts";
import {
  controlRefusal,
  hostName,
  hostRefusal,
  MAX_BODY_BYTES,
  type HostPolicy,
} from "@authsim/fake-provider/dev-server";
import { readSnapshotFile, writeSnapshotFile } from "./snapshot-file.ts";
import { nodeCryptoBackend } from "./node-crypto.ts";
import { withBodyLimit } from "./request-body.ts";
import { deterministicNote, seededLines } from "./banner-lines.ts";
import { capYoungGeneration } from "./young-generation.ts";
import { readyInfo, type ReadyInfo } from "./ready-info.ts";
import { serveSide } from "./side-ports.ts";
import { loadConfigFile, pushConfig, watchConfigFile } from "./config-file.ts";
import { bundleBannerLines, prepareBundles, withBundles } from "../bundles/dev-server.ts";

// The control endpoint's JSON, worded as the emulator's own answers (charset included).
const json = (body: unknown, init?: ResponseInit) =>
  new Response(JSON.stringify(body), { ...init, headers: { "content-type": "application/json; charset=utf-8" } });

/** `npm start`: the emulator as a local dev server, seeded with the dev project, printing its keys. Node-only edge. */
let options;
try {
  options = parseCliArgs(process.argv.slice(2), process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}

const refusal = startupRefusal(options);
if (refusal) {
  console.error(refusal);
  process.exit(2);
}

// For tools (--ready-json) and under `authsim exec`, stdout belongs to the JSON line and the command: the banner moves to stderr.
const log = options.readyJson || options.exec ? console.error : console.log;
const displayHost = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;
const provisionalUrl = `http://${displayHost}:${options.port}`;
// A seeded source replays the same sequence on every start: a restored snapshot records how far it had got, so ids
// drawn after the restore never repeat ids already in the state.
let drawn = 0;
const seeded = options.deterministic !== null ? seededRandom(options.deterministic) : null;
const random = seeded && {
  bytes: (length: number) => {
    drawn += length;
    return seeded.bytes(length);
  },
};
// The interface the server was told to bind is a name it answers to as well (with --allow-network).
const bound = hostName(options.host);
const requestGuard: HostPolicy = {
  extraHosts: [...options.allowHosts, ...(bound === "0.0.0.0" || bound === "::" ? [] : [bound])],
};
const provider = createFakeProvider({
  // The dev project comes with its payments set up, so its seeded catalogue sells from the first start (seed.ts).
  seed: { ...defaultSeed, paymentsSetUp: [devProjectSeed.id] },
  requestGuard,
  outboxCapacity: options.outboxCapacity,
  requestLogCapacity: options.requestLogCapacity,
  apiBaseUrl: provisionalUrl,
  hashCost: options.hashCost,
  // node:crypto, not Web Crypto's pool round trips: hashing on the main thread, token signatures on a thread of their
  // own (node-crypto.ts, signing-thread.ts).
  crypto: nodeCryptoBackend({ signOn: "thread" }),
  accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds,
  fixedOtp: options.fixedOtp,
  // The real service's switch for recorded passkey answers (its own backend e2e suite sets it).
  hardcodedPasskeyChallenge: Boolean(process.env.STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING),
  // Seeded ids alone still differ by every timestamp: the clock starts frozen at a fixed instant too.
  ...(random ? { ids: random, frozenAtMillis: DETERMINISTIC_START_MILLIS } : {}),
  // Emails wait in the queue for about a tick of the real service's worker (ops/emails/email-queue.ts), so polling clients see
  // them "preparing"; in the deterministic mode they render in the request as in tests, so when an email is rendered
  // depends on the requests alone, never on how fast they came.
  ...(random ? {} : { emailQueueDelayMillis: DEV_SERVER_EMAIL_QUEUE_DELAY_MILLIS }),
  // --dev-ports: purchase URLs on the dashboard's port, uploaded images on the storage port (named localhost, as the
  // real development setup names them).
  ...(options.dashboardUrl ? { dashboardUrl: options.dashboardUrl } : {}),
  ...(options.storagePort !== null ? { storageUrl: `http://localhost:${options.storagePort}` } : {}),
  smtpDelivery: { allowHosts: options.smtpAllowHosts }, // a project's own mail server on loopback (or named) gets SMTP
  // A project's external database that fails its sync is said on the console, as the real service logs it.
  dbSync: {
    onOutcome: (projectId, outcomes) => {
      for (const o of outcomes)
        if (o.error !== null)
          console.error(`external database sync: project ${projectId}, database "${o.id}": ${o.error}`);
    },
  },
});
const refuse = (reason: string): never => {
  console.error(reason);
  process.exit(2);
};

// Relative to the caller's directory: `npm start` runs in authsim/, and npm keeps the caller's in INIT_CWD.
const snapshotFile = options.snapshotFile && resolve(process.env.INIT_CWD ?? process.cwd(), options.snapshotFile);
interface SnapshotFile extends ProviderSnapshot {
  randomBytesDrawn?: number;
}
function saveSnapshot(): void {
  if (!snapshotFile) return;
  const file: SnapshotFile = { ...provider.snapshot(), ...(seeded ? { randomBytesDrawn: drawn } : {}) };
  writeSnapshotFile(snapshotFile, JSON.stringify(file, null, 2));
}
let restoredSnapshot = false;
if (snapshotFile && existsSync(snapshotFile)) {
  restoredSnapshot = true;
  try {
    const file = readSnapshotFile(snapshotFile) as SnapshotFile;
    provider.restore(file);
    if (seeded && file.randomBytesDrawn && file.randomBytesDrawn > drawn) random!.bytes(file.randomBytesDrawn - drawn);
  } catch (error) {
    refuse(`Could not load the snapshot ${snapshotFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Checked on the restored state (typed, whatever the file's layout): nothing is served or saved before this exit.
  const { apiKeySets, projects } = provider.store.read;
  const refusal = stateRefusal(
    `the snapshot ${snapshotFile}`,
    storeState({ apiKeySets: apiKeySets.values(), projects: projects.values() }),
  );
  if (refusal) refuse(refusal);
}
// Saving to a file is the Node edge's business, so this control endpoint exists only in the dev server.
provider.app.post(`${CONTROL_PREFIX}${controlEndpoints.saveSnapshot.path}`, () => {
  if (!snapshotFile)
    return json({ error: "Start the server with --snapshot FILE to save snapshots to a file." }, { status: 400 });
  try {
    saveSnapshot();
  } catch (error) {
    return json(
      { error: `Could not save the snapshot: ${error instanceof Error ? error.message : String(error)}` },
      { status: 500 },
    );
  }
  return json({ success: true, file: snapshotFile });
});

// --seed loads a fixture through the API (in process), unless the state came from a snapshot that already holds it.
let seedReport: LoadReport | null = null;
if (options.seedFile && !restoredSnapshot) {
  // `npm start` runs in authsim/: a relative path is the caller's (npm keeps the caller's directory in INIT_CWD).
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), options.seedFile);
  const failed = (error: unknown) =>
    refuse(`Could not load the fixture ${options.seedFile}: ${error instanceof Error ? error.message : String(error)}`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    failed(error);
  }
  // Before loading: a refused fixture never reaches the emulator's state.
  const refusal = stateRefusal(`the fixture ${file}`, fixtureState(doc));
  if (refusal) refuse(refusal);
  try {
    seedReport = await loadFixture(doc, { baseUrl: provisionalUrl, fetch: provider.fetch, emulator: true });
  } catch (error) {
    failed(error);
  }
}

// --config: the Stack Auth CLI's config file, pushed to the dev project's branch config as `stack config push` pushes it;
// after the seed and a restored snapshot, so the file has the last word. A file that does not load or is refused stops
// the start (config-file.ts words the file and the reason; the endpoint's refusal names the key).
const configFile = options.configFile && resolve(process.env.INIT_CWD ?? process.cwd(), options.configFile);
// The dev project with its fixed keys: the banner's env lines, --config's pushes, the ready line and exec's environment.
const devProject = {
  id: devProjectSeed.id,
  publishable: devProjectSeed.keys.publishable_client_key,
  secret: devProjectSeed.keys.secret_server_key,
  admin: devProjectSeed.keys.super_secret_admin_key,
};
const devAdmin = {
  accessType: "admin",
  projectId: devProject.id,
  publishableClientKey: devProject.publishable,
  superSecretAdminKey: devProject.admin,
} as const;
const applyConfig = async (file: string) =>
  pushConfig(file, await loadConfigFile(file), { baseUrl: provisionalUrl, fetch: provider.fetch, caller: devAdmin });
if (configFile)
  await applyConfig(configFile).catch((error: unknown) =>
    refuse(error instanceof Error ? error.message : String(error)),
  );

// The dashboard and the hosted sign-in pages are static files built with the package (from sources in the monorepo:
// rebuilt when stale), served from disk here at the Node edge; without a build they answer placeholder pages.
const bundleNotes = await prepareBundles();

/**
 * Bodies are refused past the emulator's limit (MAX_BODY_BYTES, docs/emulator.md) before they are held, on every path:
 * any web page can send the dev server a body. The control plane takes snapshots (POST /restore) of a large state, so
 * its limit is higher; its requests have passed the request guard by then (same origin or no browser at all).
 */
const CONTROL_MAX_BODY_BYTES = 256 * 1024 * 1024;

// The host check stands in front of the static pages too (the app checks its own routes).
const pages = withBundles(provider.app.fetch, (request) => provider.app.fetch(request));
const guardedFetch = (request: Request, env?: HttpBindings | Http2Bindings) => {
  const control = new URL(request.url).pathname.startsWith(CONTROL_PREFIX);
  // The control plane's refusals come before its body is read too: a foreign page's upload is never buffered.
  const refused = hostRefusal(request, requestGuard) ?? (control ? controlRefusal(request) : null);
  if (refused) return refused;
  return withBodyLimit(request, env, control ? CONTROL_MAX_BODY_BYTES : MAX_BODY_BYTES, pages);
};
// Ready once every port listens: then --ready-json prints its line and `authsim exec` runs its command.
const listening: Promise<[string, number]>[] = [];
let apiListening!: (port: [string, number]) => void;
listening.push(new Promise((resolve) => (apiListening = resolve)));
const server = serve({ fetch: guardedFetch, port: options.port, hostname: options.host }, (info) => {
  const apiUrl = `http://${displayHost}:${info.port}`;
  // With --port 0 the real port is known only now; token issuers must name it.
  provider.settings.apiBaseUrl = apiUrl;
  // V8's flags change only from here: the built CLI's code cache is made before (src/bundle-loader.ts), and V8 rejects
  // a cache made under flags other than those it is read under.
  // After a full collection V8 lets the old generation grow to as much as four times what survived before the next
  // one; a dev server's state is small and long-lived, so that slack was most of its RSS (191 MiB after 10,000 users,
  // of which about 40 MiB live). 30% over the live size costs no measurable CPU on the bench's requests (npm run bench).
  setFlagsFromString("--heap-growing-percent=30");
  // Serving: the young generation may grow to 8 MiB under load, not to V8's 32.
  capYoungGeneration(8);
  log(
    [
      `authsim fake provider listening on ${apiUrl} (API at ${apiUrl}/api/v1, controls at ${apiUrl}${CONTROL_PREFIX})`,
      ...bundleBannerLines(apiUrl, bundleNotes),
      `Password hashing: ${options.hashCost}.${options.deterministic !== null ? ` ${deterministicNote(options.deterministic, provider.clock, restoredSnapshot)}` : ""}`,
      ...(configFile
        ? [
            `Config file ${configFile} pushed to the dev project's branch config${options.watch ? " (again on every change: --watch)" : ""}.`,
          ]
        : []),
      snapshotFile
        ? `State is loaded from and saved to ${snapshotFile}.`
        : "Everything is in memory and lost on exit (--snapshot FILE keeps it).",
      ...options.fixedOtp.map(
        (r) =>
          `Fixed sign-in OTP ${r.code} for ${r.pattern} (--fixed-otp; change with PUT ${CONTROL_PREFIX}/fixed-otp).`,
      ),
      "",
      `Dev project "${devProjectSeed.display_name}" — paste into your app's env:`,
      "",
      ...envLines(apiUrl, devProject),
      "",
      ...(seedReport ? seededLines(options.seedFile!, seedReport, apiUrl) : []),
    ].join("\n"),
  );
  apiListening(["api", info.port]);
});

server.on("error", (error: NodeJS.ErrnoException) => {
  console.error(
    error.code === "EADDRINUSE" ? `Port ${options.port} is in use: pass --port or set PORT.` : error.message,
  );
  process.exit(1);
});

const sidePorts = { requestGuard, host: options.host, log, listening };

// --mock-oauth-port: the shared-keys providers' mock OAuth server on a port of its own (fake-provider/src/emulator/mock-oauth/).
// Named localhost, as the real service's development setup names it.
if (options.mockOAuthPort !== null) {
  const mockOAuth = createMockOAuthServer(provider, { origin: `http://localhost:${options.mockOAuthPort}` });
  serveSide(
    sidePorts,
    "mockOAuth",
    options.mockOAuthPort,
    mockOAuth.fetch,
    "--mock-oauth-port",
    () =>
      `Mock OAuth server for the shared-keys providers: ${mockOAuth.origin} (their callbacks go to ${provider.settings.mockOAuthServer?.callbackBaseUrl}).`,
  );
}

/** Saves the snapshot (if any) and exits; a failed save exits 1 unless `code` already says something failed. */
function stop(code: number): never {
  try {
    saveSnapshot();
  } catch (error) {
    // The previous file is untouched (snapshot-file.ts): say so rather than die with a stack trace.
    console.error(
      `Could not save the snapshot on exit (the previous file is kept): ${error instanceof Error ? error.message : String(error)}`,
    );
    if (code === 0) code = 1;
  }
  server.close();
  process.exit(code);
}

// --watch: the file pushed again on every change (config-file.ts).
if (configFile && options.watch) watchConfigFile(configFile, () => applyConfig(configFile), log);

// --svix-port: the webhooks' Svix API at the root of a port of its own, as the real development setup's Svix server
// (STACK_SVIX_SERVER_URL=http://localhost:8113). Always also at /__svix on the API's port.
const appFetch = (request: Request) => provider.app.fetch(request);
if (options.svixPort !== null) {
  const svixPort = options.svixPort;
  serveSide(
    sidePorts,
    "svix",
    svixPort,
    svixPortFetch(appFetch),
    "--svix-port",
    () =>
      `Svix API for webhooks: http://${displayHost}:${svixPort} (also ${provider.settings.apiBaseUrl}${SVIX_PREFIX}); tokens from POST /api/v1/webhooks/svix-token.`,
  );
}

// --dev-ports: the rest of the development setup's family. The purchase pages at the dashboard's path, their form
// guarded as the control plane's (the page's origin is this port's); Inbucket's mailbox API over the outbox; the
// storage server's public bucket.
if (options.purchasePort !== null) {
  serveSide(
    sidePorts,
    "purchase",
    options.purchasePort,
    purchasePortFetch(appFetch, CONTROL_PREFIX),
    "--dev-ports-skip 01",
    () => `Purchase pages (purchase URLs open them): ${options.dashboardUrl}/purchase/{code}.`,
    controlRefusal,
  );
}
if (options.mailboxPort !== null) {
  const mailboxPort = options.mailboxPort;
  serveSide(
    sidePorts,
    "mailbox",
    mailboxPort,
    inbucketFetch(provider),
    "--dev-ports-skip 05",
    () => `Inbucket mailbox API over the outbox: http://localhost:${mailboxPort}/api/v1/mailbox/{name}.`,
  );
}
if (options.storagePort !== null) {
  const storagePort = options.storagePort;
  serveSide(
    sidePorts,
    "storage",
    storagePort,
    storagePortFetch(appFetch),
    "--dev-ports-skip 21",
    () =>
      `Uploaded images: http://localhost:${storagePort}/stack-storage/… (also ${provider.settings.apiBaseUrl}${STORAGE_PREFIX}/stack-storage/…).`,
  );
}
// The SMTP server (--dev-ports' 29) is loaded only when asked for; ready, like the others, once it listens.
if (options.smtpPort !== null) {
  const smtpPort = options.smtpPort;
  listening.push(
    import("./smtp-port.ts")
      .then((m) => m.serveSmtpPort(provider, smtpPort, options.host, log))
      .then(({ port }): [string, number] => ["smtp", port]),
  );
}
if (options.dashboardUrl !== null && options.purchasePort === null)
  log(`Purchase URLs point at ${options.dashboardUrl}/purchase/{code} (the dashboard you run there serves them).`);

// Under `authsim exec` a stop signal goes to the command (run-command.ts), and the emulator stops when it has ended.
if (!options.exec) for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop(0));

void Promise.all(listening).then(async (ports) => {
  const info = readyInfo(provider.settings.apiBaseUrl, Object.fromEntries(ports) as ReadyInfo["ports"], devProject);
  Object.assign(info.env, devPortsEnv(options));
  if (options.readyJson) console.log(JSON.stringify(info));
  // Loaded only here: child processes are `exec`'s alone, and every plain start would pay for node:child_process.
  if (options.exec) stop(await (await import("./run-command.ts")).runCommand(options.exec, info.env));
});
