import type { ApiKeySetRecord, ProjectRecord } from "../../domain/store/records.ts";

/**
 * The emulator never holds a real project's keys or trusted domains: it shows its keys to anyone on the machine and
 * its /__emulator controls need no authentication. This is the pure rule (web standards only, so the core can use
 * it in Node, a browser page or msw handlers); the dev server applies it to --seed / --snapshot files at startup
 * (cli-safety.ts) and the control endpoints to every request that brings keys or domains (emulator/control/live-state-guard.ts).
 *
 * The in-process API (createFakeProvider({ seed }), provider.restore()) does not apply it: only code that already
 * runs inside the test process reaches it, and tests may deliberately use keys of any shape (e.g. to check that the
 * rule itself, or an app's key handling, works). What can arrive from outside (a file, an HTTP request) is checked.
 */

/*
 * Keys. The real service's project keys are `pck_` / `ssk_` / `sak_` and 224 random bits as one unbroken run of 45
 * lowercase base32 characters. A run of 32 or more letters and digits after such a prefix is treated as one (fail
 * closed: a cut or re-cased real key is refused too), unless a word of the key, between `_` or `-`, is `authsim`,
 * `test` or `dev`: a real key has no second separator, so a marked key cannot be one verbatim. The emulator's own keys
 * carry `authsim` (domain/ops/projects/internal-api-keys.ts, fixtures/), so nothing it makes is refused; `this-…-is-for-local-…`
 * style keys have no prefix and pass.
 */
const KEY_PREFIX = /^(pck|ssk|sak)_/i;
const MARKER_WORDS = new Set(["authsim", "test", "dev"]);
const RANDOM_RUN = /^[0-9a-z]{32,}$/i;

export function looksLikeLiveKey(key: string): boolean {
  const trimmed = key.trim();
  const prefix = KEY_PREFIX.exec(trimmed);
  if (!prefix) return false;
  const words = trimmed.slice(prefix[0].length).split(/[_-]/);
  if (words.some((w) => MARKER_WORDS.has(w.toLowerCase()))) return false;
  return words.some((w) => RANDOM_RUN.test(w));
}

/*
 * Hosts. A trusted domain on the real service's hosts (protocol.md names api./app./docs.stack-auth.com, the hexclave.com
 * equivalents and <project>.built-with-stack-auth.com) means the state was copied from a real project's config.
 */
const REAL_SERVICE_DOMAINS = ["stack-auth.com", "built-with-stack-auth.com", "hexclave.com"];

export function isRealServiceHost(domain: string): boolean {
  // Trusted domains are URLs or bare hosts, possibly with a `*.` wildcard: take the host part either way.
  const host = domain
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .split(/[/?#]/)[0]!
    .replace(/^[^@]*@/, "")
    .replace(/:\d*$/, "")
    .replace(/^(\*\.)+/, "")
    .replace(/\.$/, "");
  return REAL_SERVICE_DOMAINS.some((d) => host === d || host.endsWith(`.${d}`));
}

/** Where a key or domain was found, for the message: the project it belongs to. */
export interface Found {
  value: string;
  /** e.g. "secret server key of project 0b6…" */
  what: string;
}

/** The state a file would bring, as the project keys and trusted domains it holds. */
export interface StateFound {
  keys: Found[];
  domains: Found[];
}

/** The live-looking keys and real-service domains among what was found: nothing refused when both are empty. */
export function liveState(found: StateFound): StateFound {
  return {
    keys: found.keys.filter((k) => looksLikeLiveKey(k.value)),
    domains: found.domains.filter((d) => isRealServiceHost(d.value)),
  };
}

/** Only the first 8 characters of a key are ever shown: enough to find it, not enough to use it. */
export const keyHint = (key: string): string => `${key.trim().slice(0, 8)}…`;

/**
 * The reason to refuse, after `lead` (e.g. "Refusing to start: the fixture F looks like a real project's."), or null.
 * `container` says where the keys are to be edited ("the file", "the request body").
 */
export function liveStateReason(lead: string, container: string, found: StateFound): string | null {
  const { keys, domains } = liveState(found);
  if (keys.length === 0 && domains.length === 0) return null;
  const lines = [lead];
  if (keys.length > 0) {
    lines.push(
      "These keys have the real service's shape (pck_/ssk_/sak_ and a long random run) and no authsim/test/dev word:",
      ...keys.map((k) => `  - ${k.what}: ${keyHint(k.value)}`),
      "The emulator shows its keys to anyone on this machine, so it never holds real ones. Use keys it generates (they",
      `read pck_authsim_…: leave \`keys\` out of a fixture's project), or mark each key in ${container} as an emulator key with`,
      "an `authsim` word after the prefix, e.g. pck_authsim_… for pck_… (snapshots saved before authsim marked its own",
      "keys need the same edit).",
    );
  }
  if (domains.length > 0) {
    lines.push(
      "These trusted domains are the real service's hosts:",
      ...domains.map((d) => `  - ${d.what}: ${d.value}`),
      "Use your app's own (local) domains instead.",
    );
  }
  return lines.join("\n");
}

const KEY_NAMES: Record<string, string> = {
  publishable_client_key: "publishable client key",
  secret_server_key: "secret server key",
  super_secret_admin_key: "super secret admin key",
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The keys and domains of a fixture document, read before it is validated or loaded (fixtures/src/schema.ts): so a
 * malformed file is still checked as far as it goes, and a refused one never reaches the emulator.
 */
export function fixtureState(doc: unknown): StateFound {
  const found: StateFound = { keys: [], domains: [] };
  const projects = isRecord(doc) && Array.isArray(doc.projects) ? (doc.projects as unknown[]) : [];
  projects.forEach((p, i) => {
    if (!isRecord(p)) return;
    const project = typeof p.id === "string" ? `project ${p.id}` : `project #${i + 1}`;
    if (isRecord(p.keys)) {
      for (const [name, value] of Object.entries(p.keys)) {
        if (typeof value === "string")
          found.keys.push({ value, what: `${Object.hasOwn(KEY_NAMES, name) ? KEY_NAMES[name] : name} of ${project}` });
      }
    }
    const domains = isRecord(p.config) && Array.isArray(p.config.domains) ? (p.config.domains as unknown[]) : [];
    for (const d of domains)
      if (isRecord(d) && typeof d.domain === "string")
        found.domains.push({ value: d.domain, what: `trusted domain of ${project}` });
  });
  return found;
}

/** The keys and domains of a restored state: every project key set (domain/store/records.ts) and each project's domains. */
export function storeState(state: {
  apiKeySets: Iterable<ApiKeySetRecord>;
  projects: Iterable<ProjectRecord>;
}): StateFound {
  const found: StateFound = { keys: [], domains: [] };
  for (const set of state.apiKeySets) {
    const of = `of project ${set.projectId} (key set ${set.id})`;
    if (set.publishableClientKey !== null)
      found.keys.push({ value: set.publishableClientKey, what: `publishable client key ${of}` });
    if (set.secretServerKey !== null) found.keys.push({ value: set.secretServerKey, what: `secret server key ${of}` });
    if (set.superSecretAdminKey !== null)
      found.keys.push({ value: set.superSecretAdminKey, what: `super secret admin key ${of}` });
  }
  for (const project of state.projects) {
    for (const d of project.config.domains)
      found.domains.push({ value: d.domain, what: `trusted domain of project ${project.id}` });
  }
  return found;
}
