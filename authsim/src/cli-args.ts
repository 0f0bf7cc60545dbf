import type { FixedOtpRule, HashCost } from "@authsim/fake-provider";
import { parseFixedOtpRule } from "@authsim/fake-provider/dev-server";

/** The dev server's command line (issue: `npm start`). Parsed without a library: a handful of flags. */
export interface CliOptions {
  port: number;
  host: string;
  hashCost: HashCost;
  accessTokenLifetimeSeconds: number;
  /**
   * Seed for ids, codes, keys and tokens, with the clock frozen at DETERMINISTIC_START_MILLIS: the same seed and
   * requests give the same state (stable snapshots).
   */
  deterministic: string | null;
  /** Loaded on start when it exists; written on exit and on POST /__emulator/snapshot/save. */
  snapshotFile: string | null;
  /** Binding to a non-loopback interface needs this too (fail closed: see cli-safety.ts). */
  allowNetwork: boolean;
  /** Emails the outbox keeps (`--outbox-capacity`); the oldest are dropped past it. */
  outboxCapacity: number;
  /** API requests the request log keeps (`--request-log-capacity`). */
  requestLogCapacity: number;
  /** Host names answered besides loopback ones (`--allow-host`, repeatable): see safety/request-guard.ts. */
  allowHosts: string[];
  /** A fixture document (fixtures/README.md) loaded through the API on start, unless a snapshot was restored. */
  seedFile: string | null;
  /** Addresses whose emailed sign-in OTP is fixed (`--fixed-otp '*@example.com=123456'`, repeatable; first match wins). */
  fixedOtp: FixedOtpRule[];
  /**
   * Port of the mock OAuth server for shared-keys providers (`--mock-oauth-port N`, or `auto`: the port with its last
   * two digits 14, as the real service's development setup numbers it); null runs none.
   */
  mockOAuthPort: number | null;
  /** `--ready-json`: once it answers, one JSON line on stdout (readyInfo, ready-line.ts) and the banner on stderr. */
  readyJson: boolean;
  /** `--config FILE`: the real CLI's config file, pushed to the dev project's branch config on start (config-file.ts). */
  configFile: string | null;
  /** `--watch`: push the config file again whenever it changes. */
  watch: boolean;
  /** `authsim exec … -- COMMAND…`: the command to run against the emulator, which stops when it ends; null serves. */
  exec: string[] | null;
  /**
   * Port of the emulator's Svix API (`--svix-port N`, or `auto`: the port with its last two digits 13, where the real
   * service's development setup runs Svix); null serves it only under the API's origin at /__svix.
   */
  svixPort: number | null;
  /**
   * `--dev-ports`: the real development setup's ports around the API (the API's port with its last two digits 01, 05,
   * 13, 14, 21): the purchase pages, the Inbucket mailbox API, Svix, the mock OAuth server and the storage server.
   * `--dev-ports-skip 01,…` leaves some off (e.g. 01 for the real dashboard, which then serves the purchase URLs).
   */
  purchasePort: number | null;
  /** The Inbucket mailbox API over the outbox (`--dev-ports`: <prefix>05). */
  mailboxPort: number | null;
  /** An SMTP server taking mail into the outbox, as Inbucket's SMTP (`--dev-ports`: <prefix>29). */
  smtpPort: number | null;
  /**
   * Hosts besides loopback ones that a project's own mail server may be on for the emulator to deliver to it over SMTP
   * (`--smtp-allow-host NAME`, repeatable; fake-provider/src/domain/ops/emails/mail-server.ts).
   */
  smtpAllowHosts: string[];
  /** The storage server uploaded images are served from (`--dev-ports`: <prefix>21); null: under the API's origin. */
  storagePort: number | null;
  /** Where purchase URLs point (`--dev-ports`: http://localhost:<prefix>01, ours or the real dashboard); null: our checkout page. */
  dashboardUrl: string | null;
}

/** The development setup's port family around the API's <prefix>02 (`--dev-ports`), by the two digits that end each. */
export const DEV_PORT_SUFFIXES = {
  purchase: "01",
  mailbox: "05",
  svix: "13",
  mockOAuth: "14",
  storage: "21",
  smtp: "29",
} as const;

/**
 * Where --deterministic starts the clock, frozen: a wall-clock start would put a different instant into every timestamp
 * and token `iat` of two otherwise identical runs. A fixed date (not one derived from the seed) is easy to recognise.
 */
export const DETERMINISTIC_START_MILLIS = Date.UTC(2026, 0, 1);

export const usage = `Usage: authsim [options]
       authsim exec [options] -- COMMAND [ARGS…]

  exec                         start, run COMMAND with the dev project's env lines (STACK_API_URL, STACK_*,
                               NEXT_PUBLIC_STACK_*, AUTHSIM_URL) in its environment, stop when it ends (saving
                               --snapshot) and exit with its status; signals go to COMMAND

  --port N                     port to listen on (default: $PORT or 8102; 0 picks a free one)
  --ready-json                 once it answers, print one JSON line (url, ports, project id, keys, env) on stdout;
                               the banner goes to stderr
  --config FILE                apply the Stack Auth CLI's config file (.ts, .js or .mjs exporting \`config\`, or
                               .json) to the dev project, as \`stack config push\` pushes it to a branch
  --watch                      with --config: apply the file again whenever it changes
  --host H                     interface to bind (default 127.0.0.1; the emulator is for this machine)
  --allow-network              allow --host to be a non-loopback interface (its keys are public, its controls open)
  --smtp-allow-host NAME       a project's own mail server (email config type "standard") gets its emails over SMTP
                               when on a loopback host (localhost, 127.0.0.0/8, ::1); also when on NAME with this
                               flag (repeatable). Any other host, the shared server and managed ones: outbox only
  --allow-host NAME            answer requests for NAME too (e.g. host.docker.internal); by default only
                               localhost, 127.0.0.1 and [::1] (so a DNS-rebinding page cannot read it); repeatable
  --hash-cost fast|production  password hashing: fast (10 PBKDF2 iterations, default) or production (600,000)
  --access-token-lifetime S    seconds an access token lives (default 600, at least 60)
  --deterministic SEED         seeded ids, codes, keys and tokens, and the clock frozen at 2026-01-01T00:00:00Z
                               (advance it with POST /__emulator/clock/advance), for stable snapshots
  --snapshot FILE              load state from FILE on start (if it exists); save it on exit and on
                               POST /__emulator/snapshot/save
  --seed FILE                  load a fixture (fixtures/README.md) on start, e.g.
                               fixtures/scenarios/saas-teams.json (skipped when --snapshot restored a state)
  --outbox-capacity N           emails the outbox keeps, dropping the oldest (default 10000)
  --request-log-capacity N     API requests the request log keeps (default 1000)
  --fixed-otp PATTERN=CODE     sign-in emails to matching addresses show this 6-digit OTP, e.g.
                               '*@example.com=123456' (* matches anything; repeatable, the first match wins)
  --mock-oauth-port N|auto     also run a mock OAuth server on port N (auto: the port's last two digits made 14,
                               e.g. 8114 for 8102) for the shared-keys providers, as the real service's development
                               setup has: their sign-in goes there and their connected accounts get its tokens
  --svix-port N|auto           also serve the webhooks' Svix API on port N (auto: the port's last two digits made 13,
                               e.g. 8113 for 8102, the real development setup's STACK_SVIX_SERVER_URL); it is always
                               served at /__svix on the API's own port
  --dev-ports                  serve the real development setup's ports around the API's (which must end in 02):
                               the purchase pages on <prefix>01 (purchase URLs point there), the Inbucket mailbox
                               API over the outbox on 05, Svix on 13, the mock OAuth server on 14, uploaded
                               images on 21 (http://localhost:<prefix>21/stack-storage/…) and an SMTP server on 29
                               that takes any mail (as Inbucket's; what this emulator sends is in the outbox
                               already); with --host localhost, the real service's e2e suite needs only its env vars
  --dev-ports-skip NN[,NN…]    with --dev-ports: leave these ports off (01, 05, 13, 14, 21, 29), e.g. 01 when the real
                               dashboard runs there (purchase URLs still point at it)`;

function positiveInteger(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 10_000_000)
    throw new Error(`${flag} must be a whole number from 1 to 10000000, not ${text}.`);
  return n;
}

export function parseCliArgs(argv: readonly string[], env: Record<string, string | undefined>): CliOptions {
  const options: CliOptions = {
    port: Number(env.PORT ?? 8102),
    host: "127.0.0.1",
    hashCost: "fast",
    accessTokenLifetimeSeconds: 600,
    deterministic: null,
    snapshotFile: null,
    allowNetwork: false,
    allowHosts: [],
    outboxCapacity: 10_000,
    requestLogCapacity: 1_000,
    seedFile: null,
    fixedOtp: [],
    mockOAuthPort: null,
    readyJson: false,
    configFile: null,
    watch: false,
    exec: null,
    svixPort: null,
    purchasePort: null,
    mailboxPort: null,
    smtpPort: null,
    smtpAllowHosts: [],
    storagePort: null,
    dashboardUrl: null,
  };
  let devPorts = false;
  const skipped = new Set<string>();
  let mockOAuthPort: string | null = null;
  let svixPort: string | null = null;
  const exec = argv[0] === "exec";
  for (let i = exec ? 1 : 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value.\n\n${usage}`);
      return v;
    };
    // The command starts after `--`, or at the first word that is not an option.
    if (exec && (flag === "--" || !flag.startsWith("-"))) {
      options.exec = argv.slice(flag === "--" ? i + 1 : i);
      break;
    }
    switch (flag) {
      case "--port":
        options.port = Number(value());
        break;
      case "--host":
        options.host = value();
        break;
      case "--hash-cost": {
        const v = value();
        if (v !== "fast" && v !== "production") throw new Error(`--hash-cost must be fast or production, not ${v}.`);
        options.hashCost = v;
        break;
      }
      case "--access-token-lifetime":
        options.accessTokenLifetimeSeconds = Number(value());
        break;
      case "--deterministic":
        options.deterministic = value();
        break;
      case "--snapshot":
        options.snapshotFile = value();
        break;
      case "--seed":
        options.seedFile = value();
        break;
      case "--fixed-otp":
        options.fixedOtp.push(parseFixedOtpRule(value()));
        break;
      case "--allow-host": {
        const name = value().trim().toLowerCase();
        if (!/^[a-z0-9.\-[\]:]+$/.test(name) || name.includes("/"))
          throw new Error(`--allow-host takes a host name without scheme or port, not ${name}.`);
        options.allowHosts.push(name);
        break;
      }
      case "--smtp-allow-host": {
        const name = value().trim().toLowerCase();
        if (!/^[a-z0-9.\-[\]:]+$/.test(name) || name.includes("/"))
          throw new Error(`--smtp-allow-host takes a host name without scheme or port, not ${name}.`);
        options.smtpAllowHosts.push(name);
        break;
      }
      case "--outbox-capacity":
        options.outboxCapacity = positiveInteger(flag, value());
        break;
      case "--request-log-capacity":
        options.requestLogCapacity = positiveInteger(flag, value());
        break;
      case "--mock-oauth-port":
        mockOAuthPort = value();
        break;
      case "--svix-port":
        svixPort = value();
        break;
      case "--dev-ports":
        devPorts = true;
        break;
      case "--dev-ports-skip":
        for (const suffix of value().split(",")) {
          if (!Object.values(DEV_PORT_SUFFIXES).includes(suffix.trim() as never))
            throw new Error(`--dev-ports-skip takes ${Object.values(DEV_PORT_SUFFIXES).join(", ")}, not ${suffix}.`);
          skipped.add(suffix.trim());
        }
        break;
      case "--allow-network":
        options.allowNetwork = true;
        break;
      case "--ready-json":
        options.readyJson = true;
        break;
      case "--config":
        options.configFile = value();
        break;
      case "--watch":
        options.watch = true;
        break;
      case "--help":
      case "-h":
        throw new Error(usage);
      default:
        throw new Error(`Unknown option ${flag}.\n\n${usage}`);
    }
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)
    throw new Error(`Invalid port ${String(options.port)}.`);
  if (!Number.isInteger(options.accessTokenLifetimeSeconds) || options.accessTokenLifetimeSeconds < 60) {
    throw new Error("--access-token-lifetime must be a whole number of seconds, at least 60.");
  }
  if (exec && (options.exec === null || options.exec.length === 0))
    throw new Error(`authsim exec needs a command: authsim exec [options] -- COMMAND [ARGS…]\n\n${usage}`);
  if (options.watch && options.configFile === null)
    throw new Error("--watch reapplies the file of --config: pass --config FILE too.");
  if (mockOAuthPort !== null)
    options.mockOAuthPort = parseSidePort("--mock-oauth-port", mockOAuthPort, options.port, "14");
  if (svixPort !== null) options.svixPort = parseSidePort("--svix-port", svixPort, options.port, "13");
  if (skipped.size > 0 && !devPorts)
    throw new Error("--dev-ports-skip leaves ports of --dev-ports off: pass --dev-ports too.");
  if (devPorts) applyDevPorts(options, skipped);
  if (options.svixPort !== null && options.svixPort === options.mockOAuthPort)
    throw new Error(`--svix-port and --mock-oauth-port are both ${options.svixPort}; choose two ports.`);
  return options;
}

/**
 * What the real service's own e2e suite reads to find the development setup (its apps/e2e/.env.development derives
 * every URL from the prefix; the URLs are given too, for tools that take them alone): handed to `authsim exec`'s
 * command and printed by `--ready-json` with `--dev-ports`.
 */
export function devPortsEnv(options: Pick<CliOptions, "port" | "dashboardUrl">): Record<string, string> {
  if (options.dashboardUrl === null) return {};
  const prefix = String(options.port).slice(0, -2);
  const url = (suffix: string) => `http://localhost:${prefix}${suffix}`;
  return {
    NEXT_PUBLIC_STACK_PORT_PREFIX: prefix,
    STACK_BACKEND_BASE_URL: url("02"),
    STACK_DASHBOARD_BASE_URL: url(DEV_PORT_SUFFIXES.purchase),
    STACK_INBUCKET_API_URL: url(DEV_PORT_SUFFIXES.mailbox),
    STACK_SVIX_SERVER_URL: url(DEV_PORT_SUFFIXES.svix),
  };
}

/**
 * `--dev-ports`: each port of the family not skipped, where no flag of its own named one; purchase URLs name the
 * dashboard's port even when it is skipped (the real dashboard serves them there), stored images the storage port only
 * when it runs (else the API's own origin serves them). Named localhost, as the real setup names them.
 */
function applyDevPorts(options: CliOptions, skipped: ReadonlySet<string>): void {
  const port = (suffix: string) => parseSidePort("--dev-ports", "auto", options.port, suffix);
  const on = (suffix: string) => !skipped.has(suffix);
  const s = DEV_PORT_SUFFIXES;
  options.dashboardUrl = `http://localhost:${port(s.purchase)}`;
  if (on(s.purchase)) options.purchasePort = port(s.purchase);
  if (on(s.mailbox)) options.mailboxPort = port(s.mailbox);
  if (on(s.svix)) options.svixPort ??= port(s.svix);
  if (on(s.mockOAuth)) options.mockOAuthPort ??= port(s.mockOAuth);
  if (on(s.storage)) options.storagePort = port(s.storage);
  if (on(s.smtp)) options.smtpPort = port(s.smtp);
}

/** A side server's port: N, or `auto`, the API's port with its last two digits made `suffix` (the development setup's numbering). */
function parseSidePort(flag: string, text: string, port: number, suffix: string): number {
  if (text === "auto") {
    const digits = String(port);
    if (!digits.endsWith("02") || digits.length < 3)
      throw new Error(
        `${flag} auto needs a port ending in 02 (e.g. 8102 gives 81${suffix}), not ${port}; name the port instead.`,
      );
    return Number(`${digits.slice(0, -2)}${suffix}`);
  }
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new Error(`${flag} takes a port from 1 to 65535 or auto, not ${text}.`);
  if (n === port) throw new Error(`${flag} ${n} is the API's port; choose another.`);
  return n;
}

// Shared with the dashboard's projects panel, which bundles it for the browser: its own file, free of the emulator.
export { envLines } from "./env-lines.ts";
