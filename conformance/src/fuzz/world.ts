import { decodeJwt } from "jose";
import { devProjectSeed, internalProjectSeed, type ProjectSeed } from "@authsim/fixtures";
import { createFakeProvider, defaultSeed, type FakeProvider, type ProviderSnapshot } from "@authsim/fake-provider";
import { headerNames, type HeaderKey } from "@authsim/sdk/contract";
import { manualClock, seededRandom } from "@authsim/sdk/runtime";

/**
 * A small, fixed population for the fuzzer and the security suite, built through the public API of an in-process fake
 * (fixed seed, manual clock): users of three projects, an anonymous user, a dashboard owner of the dev project and a
 * dashboard user who owns nothing, sessions with expired access tokens, a team, API keys, pending codes. The snapshot
 * taken at the end is what every fuzz run starts from and what "state unchanged" is compared with.
 */

/** 2026-01-01T00:00:00Z. */
export const START_MILLIS = 1_767_225_600_000;
export const ORIGIN = "http://authsim.fuzz";
export const PASSWORD = "fuzz-password-123";
export const TRUSTED_CALLBACK = "http://localhost:3000/handler/callback";
const ACCESS_TOKEN_LIFETIME_SECONDS = 600;

/** A second ordinary project: tokens and keys of one project must be worthless on the other. */
export const otherProjectSeed: ProjectSeed = {
  id: "3f1c2e4d-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  display_name: "authsim fuzz: other project",
  keys: {
    publishable_client_key: "pck_authsim_other_1111111111111111111111111111111111111111",
    secret_server_key: "ssk_authsim_other_1111111111111111111111111111111111111111",
    super_secret_admin_key: "sak_authsim_other_1111111111111111111111111111111111111111",
  },
  config: { ...devProjectSeed.config },
};

export const projects = { dev: devProjectSeed, internal: internalProjectSeed, other: otherProjectSeed } as const;
export type ProjectName = keyof typeof projects;

export interface Session {
  project: ProjectName;
  userId: string;
  email: string | null;
  accessToken: string;
  refreshToken: string;
  sessionId: string;
}

export interface World {
  provider: FakeProvider;
  /** Errors the provider answered 500 with. */
  unexpected: unknown[];
  baseline: ProviderSnapshot;
  /** Dev users a and b, anonymous anon, owner (internal, in the dev project's owner team), outsider (internal, no team), foreign (other project). */
  users: Record<"a" | "b" | "anon" | "owner" | "outsider" | "foreign", Session>;
  /** Sessions whose access tokens expired when the clock moved on (their refresh tokens still work). */
  stale: Record<"a" | "owner", Session>;
  teamId: string | null;
  /** Full API key values shown once at creation. */
  apiKeys: string[];
  /** Every uuid seen in a response while building, and every id of the snapshot's tables, by table. */
  idsByTable: Record<string, string[]>;
  seenIds: string[];
  /** Codes and OTPs of the emails sent while building. */
  codes: string[];
  /** Catalogue ids (items, offers) and vault store ids of the dev project. */
  catalogueIds: string[];
}

export interface Call {
  status: number;
  body: unknown;
}

export type HeaderFields = Partial<Record<HeaderKey, string>>;

export function keyHeaders(
  project: ProjectName,
  type: "client" | "server" | "admin",
  extra: HeaderFields = {},
): HeaderFields {
  const seed = projects[project];
  const key: HeaderFields =
    type === "client"
      ? { publishableClientKey: seed.keys.publishable_client_key }
      : type === "server"
        ? { secretServerKey: seed.keys.secret_server_key }
        : { superSecretAdminKey: seed.keys.super_secret_admin_key };
  return { accessType: type, projectId: seed.id, ...key, ...extra };
}

export function wireHeaders(fields: HeaderFields): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields) as [HeaderKey, string | undefined][])
    if (value !== undefined) out[headerNames[key]] = value;
  return out;
}

/** One JSON call to /api/v1 of the provider, in process. */
export async function call(
  provider: FakeProvider,
  method: string,
  path: string,
  fields: HeaderFields,
  body?: unknown,
): Promise<Call> {
  const headers = wireHeaders(fields);
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await provider.fetch(`${ORIGIN}/api/v1${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a text answer stays text
  }
  return { status: response.status, body: parsed };
}

const field = (value: unknown, name: string): unknown =>
  value !== null && typeof value === "object" ? (value as Record<string, unknown>)[name] : undefined;
const text = (value: unknown, name: string): string => {
  const found = field(value, name);
  if (typeof found !== "string")
    throw new Error(`World building: expected a string "${name}" in ${JSON.stringify(value)}`);
  return found;
};

async function session(
  provider: FakeProvider,
  project: ProjectName,
  path: string,
  body: unknown,
  email: string | null,
): Promise<Session> {
  const result = await call(provider, "POST", path, keyHeaders(project, "client"), body);
  if (result.status !== 200)
    throw new Error(`World building: ${path} on ${project} answered ${result.status} ${JSON.stringify(result.body)}`);
  const accessToken = text(result.body, "access_token");
  const claims = decodeJwt(accessToken);
  return {
    project,
    userId: text(result.body, "user_id"),
    email,
    accessToken,
    refreshToken: text(result.body, "refresh_token"),
    sessionId: String(claims.refresh_token_id),
  };
}

const signUp = (p: FakeProvider, project: ProjectName, email: string) =>
  session(p, project, "/auth/password/sign-up", { email, password: PASSWORD }, email);
const signIn = (p: FakeProvider, project: ProjectName, email: string) =>
  session(p, project, "/auth/password/sign-in", { email, password: PASSWORD }, email);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/gi;

export async function buildWorld(options: { seed?: string } = {}): Promise<World> {
  const unexpected: unknown[] = [];
  const provider = createFakeProvider({
    clock: manualClock(START_MILLIS),
    ids: seededRandom(options.seed ?? "authsim-fuzz"),
    seed: {
      projects: [devProjectSeed, otherProjectSeed],
      ...(defaultSeed.payments ? { payments: defaultSeed.payments } : {}),
    },
    apiBaseUrl: ORIGIN,
    accessTokenLifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS,
    onUnexpectedError: (error) => unexpected.push(error),
  });
  const seen = new Set<string>();
  // Optional set-up steps belong to areas still being built: one that fails only lowers coverage.
  const optional = async (method: string, path: string, fields: HeaderFields, body?: unknown): Promise<unknown> => {
    const result = await call(provider, method, path, fields, body);
    for (const id of JSON.stringify(result.body ?? null).match(UUID) ?? []) seen.add(id.toLowerCase());
    return result.status < 300 ? result.body : null;
  };

  const staleA = await signUp(provider, "dev", "fuzz-a@example.com");
  const staleOwner = await signUp(provider, "internal", "fuzz-owner@example.com");
  const ownerTeam = devProjectSeed.owner_team_id;
  if (!ownerTeam) throw new Error("World building: the dev project fixture names no owner team.");
  const joined = await call(
    provider,
    "POST",
    `/team-memberships/${ownerTeam}/${staleOwner.userId}`,
    keyHeaders("internal", "server"),
  );
  if (joined.status >= 300)
    throw new Error(`World building: joining the owner team answered ${joined.status} ${JSON.stringify(joined.body)}`);
  provider.clock.advance(ACCESS_TOKEN_LIFETIME_SECONDS * 1000 + 1_000);

  const a = await signIn(provider, "dev", "fuzz-a@example.com");
  const owner = await signIn(provider, "internal", "fuzz-owner@example.com");
  const b = await signUp(provider, "dev", "fuzz-b@example.com");
  const anon = await session(provider, "dev", "/auth/anonymous/sign-up", undefined, null);
  const outsider = await signUp(provider, "internal", "fuzz-outsider@example.com");
  const foreign = await signUp(provider, "other", "fuzz-foreign@example.com");

  const asA = keyHeaders("dev", "client", { accessToken: a.accessToken });
  const team = await optional("POST", "/teams", asA, { display_name: "Fuzz team", creator_user_id: "me" });
  const teamId = typeof field(team, "id") === "string" ? String(field(team, "id")) : null;
  const apiKeys: string[] = [];
  const keep = (created: unknown) =>
    typeof field(created, "value") === "string" && apiKeys.push(String(field(created, "value")));
  keep(await optional("POST", "/user-api-keys", asA, { user_id: "me", description: "fuzz", expires_at_millis: null }));
  if (teamId) {
    keep(
      await optional("POST", "/team-api-keys", asA, { team_id: teamId, description: "fuzz", expires_at_millis: null }),
    );
    await optional("POST", "/team-invitations/send-code", asA, {
      email: "fuzz-invitee@example.com",
      team_id: teamId,
      callback_url: TRUSTED_CALLBACK,
    });
  }
  await optional("POST", "/auth/password/send-reset-code", keyHeaders("dev", "client"), {
    email: a.email,
    callback_url: TRUSTED_CALLBACK,
  });
  await optional("POST", "/auth/otp/send-sign-in-code", keyHeaders("dev", "client"), {
    email: b.email,
    callback_url: TRUSTED_CALLBACK,
  });
  await optional("POST", "/contact-channels/send-verification-code", asA, {
    email: a.email,
    callback_url: TRUSTED_CALLBACK,
  });
  await optional("POST", "/internal/api-keys", keyHeaders("dev", "admin"), {
    description: "fuzz",
    expires_at_millis: START_MILLIS + 365 * 24 * 3600 * 1000,
    has_publishable_client_key: true,
    has_secret_server_key: true,
    has_super_secret_admin_key: true,
  });
  // The dev project's payments account: purchase URLs need one (as on the real service).
  await optional("POST", "/internal/payments/setup", keyHeaders("dev", "admin"), {});
  await optional("GET", "/emails/notification-preference/me", asA);
  await optional("GET", "/contact-channels?user_id=me", asA);
  await addResidents(provider);
  // The JWKS creates the restricted-users key on first read; build it now so no fuzz run does.
  await optional("GET", `/projects/${devProjectSeed.id}/.well-known/jwks.json?include_anonymous=true`, {});

  const baseline = provider.snapshot();
  const idsByTable: Record<string, string[]> = {};
  for (const [name, rows] of Object.entries(baseline.store.tables)) idsByTable[name] = rows.map(([id]) => id);
  const codes = new Set<string>();
  for (const [, row] of baseline.store.tables.emails ?? []) {
    for (const key of ["code", "otp"]) if (typeof field(row, key) === "string") codes.add(String(field(row, key)));
  }
  return {
    provider,
    unexpected,
    baseline,
    users: { a, b, anon, owner, outsider, foreign },
    stale: { a: staleA, owner: staleOwner },
    teamId,
    apiKeys,
    idsByTable,
    seenIds: [...seen],
    codes: [...codes],
    catalogueIds: catalogueIdsOf(baseline),
  };
}

/**
 * Users holding what a server may store but later requests must survive: imported password hashes that are malformed,
 * of another scheme or absurdly expensive, and names and metadata made of pollution keys, lone surrogates and bidi
 * overrides. Single fuzzed requests then meet them (sign-in, listings, reads) without a sequence of their own.
 */
export const residentEmails = [
  "fuzz-hash-huge@example.com",
  "fuzz-hash-bad@example.com",
  "fuzz-hash-bcrypt@example.com",
  "fuzz-odd@example.com",
];

async function addResidents(provider: FakeProvider): Promise<void> {
  const hashes = [
    "pbkdf2-sha256$99999999999$AAAA$AAAA",
    "pbkdf2-sha256$1000$!!!$***",
    "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
  ];
  const bodies = hashes.map((hash, i) =>
    JSON.stringify({ primary_email: residentEmails[i], primary_email_auth_enabled: true, password_hash: hash }),
  );
  // Written as text: an object literal would turn "__proto__" into a prototype instead of a key.
  bodies.push(
    `{"primary_email":"${residentEmails[3]}","primary_email_auth_enabled":true,"password":"${PASSWORD}","display_name":"\ud800\u202e odd",` +
      `"client_metadata":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}},"server_metadata":{"a":1e308}}`,
  );
  const headers = { ...wireHeaders(keyHeaders("dev", "server")), "content-type": "application/json" };
  for (const body of bodies) {
    const response = await provider.fetch(`${ORIGIN}/api/v1/users`, { method: "POST", headers, body });
    if (response.status !== 201)
      throw new Error(`World building: creating a resident answered ${response.status} ${await response.text()}`);
  }
}

function catalogueIdsOf(snapshot: ProviderSnapshot): string[] {
  const dev = snapshot.store.tables.projects?.find(([id]) => id === devProjectSeed.id)?.[1];
  const config = field(dev, "config");
  const names = (value: unknown) => (value !== null && typeof value === "object" ? Object.keys(value) : []);
  const payments = field(config, "payments");
  return [
    ...names(field(payments, "items")),
    ...names(field(payments, "offers")),
    ...names(field(field(config, "data_vault"), "stores")),
  ];
}

/** Every secret of the world a response must never echo back (keys, tokens, the password, API key values). */
export function worldSecrets(world: World): string[] {
  const keys = Object.values(projects).flatMap((p) => Object.values(p.keys));
  const sessions = [...Object.values(world.users), ...Object.values(world.stale)].flatMap((s) => [
    s.accessToken,
    s.refreshToken,
  ]);
  return [...keys, ...sessions, PASSWORD, ...world.apiKeys];
}
