import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { controlClient } from "@authsim/sdk/emulator";
import {
  buildWorld,
  keyHeaders,
  ORIGIN,
  PASSWORD,
  projects,
  TRUSTED_CALLBACK,
  worldSecrets,
  type HeaderFields,
  type World,
} from "../fuzz/world.ts";
import { api, type Answer } from "./support.ts";

/**
 * Secrets never reach the request log (issue 10): the log is shown in the dashboard and exported by
 * GET /__emulator/requests, so whatever the operations that carry secrets send or receive (passwords, keys in headers,
 * access and refresh tokens, OAuth codes and states, emailed codes and OTPs, API key values, TOTP secrets, imported
 * hashes, vault values, CLI codes) must not be found in it, not even in part. fast-check draws sequences of those
 * operations with fresh secrets; one case also runs every operation once, so coverage does not rest on the draw.
 */
let world: World;

beforeAll(async () => {
  world = await buildWorld({ seed: "authsim-security-request-log" });
});

const field = (answer: Answer, name: string): string[] =>
  typeof answer.json?.[name] === "string" ? [String(answer.json[name])] : [];
const tokensOf = (answer: Answer) => [...field(answer, "access_token"), ...field(answer, "refresh_token")];

/**
 * Secret-shaped values the operations are given. Varied enough (8 distinct characters at least) that finding 12 of them
 * in a row in the log can only be a leak, never a run of zeros in some id.
 */
const BASE32 = "0123456789abcdefghjkmnpqrstvwxyz";
const secretArb = fc
  .oneof(
    fc.string({ unit: fc.constantFrom(...BASE32), minLength: 45, maxLength: 45 }),
    fc
      .string({
        unit: fc.constantFrom(..."ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#%&*+-_"),
        minLength: 16,
        maxLength: 40,
      })
      .map((s) => `Pw-${s}`),
  )
  .filter((s) => new Set(s).size >= 8);

let emails = 0;
const freshEmail = () => `log-${(emails += 1)}@example.com`;
const asA = (): HeaderFields =>
  keyHeaders("dev", "client", { accessToken: world.users.a.accessToken, refreshToken: world.users.a.refreshToken });

/** An operation that carries secrets: runs it, answers every secret it sent or was given. */
type SecretOperation = (secret: string) => Promise<string[]>;

const operations: Record<string, SecretOperation> = {
  async passwordSignUp(password) {
    return [
      password,
      ...tokensOf(
        await api(world, "POST", "/auth/password/sign-up", keyHeaders("dev", "client"), {
          body: { email: freshEmail(), password },
        }),
      ),
    ];
  },
  async passwordSignIn(wrong) {
    const right = await api(world, "POST", "/auth/password/sign-in", keyHeaders("dev", "client"), {
      body: { email: world.users.b.email, password: PASSWORD },
    });
    await api(world, "POST", "/auth/password/sign-in", keyHeaders("dev", "client"), {
      body: { email: world.users.b.email, password: wrong },
    });
    return [PASSWORD, wrong, ...tokensOf(right)];
  },
  async passwordUpdate(next) {
    await api(world, "POST", "/auth/password/update", asA(), { body: { old_password: PASSWORD, new_password: next } });
    return [PASSWORD, next];
  },
  async keysInHeaders(wrong) {
    await api(world, "GET", "/users", keyHeaders("dev", "server"));
    await api(world, "GET", "/internal/projects/current", keyHeaders("dev", "admin"));
    await api(world, "GET", "/users", { accessType: "server", projectId: projects.dev.id, secretServerKey: wrong });
    await api(world, "GET", "/internal/projects/current", {
      accessType: "admin",
      projectId: projects.dev.id,
      adminAccessToken: wrong,
    });
    return [...Object.values(projects.dev.keys), wrong];
  },
  async tokensInHeaders() {
    await api(world, "GET", "/users/me", asA());
    await api(world, "GET", "/users/me", keyHeaders("dev", "client", { accessToken: world.stale.a.accessToken }));
    return [world.users.a.accessToken, world.users.a.refreshToken, world.stale.a.accessToken];
  },
  async refreshGrant() {
    const form = {
      grant_type: "refresh_token",
      client_id: projects.dev.id,
      client_secret: projects.dev.keys.publishable_client_key,
      refresh_token: world.users.b.refreshToken,
    };
    return [world.users.b.refreshToken, ...tokensOf(await api(world, "POST", "/auth/oauth/token", {}, { form }))];
  },
  async oauthAuthorizeWithToken(state) {
    const query = new URLSearchParams({
      client_id: projects.dev.id,
      client_secret: projects.dev.keys.publishable_client_key,
      redirect_uri: "http://localhost:3000/handler/oauth-callback",
      scope: "legacy",
      state,
      grant_type: "authorization_code",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      response_type: "code",
      type: "link",
      token: world.users.a.accessToken,
      error_redirect_url: "http://localhost:3000/handler/error",
      stack_response_mode: "json",
    });
    await api(world, "GET", `/auth/oauth/authorize/github?${query}`, {});
    return [state, world.users.a.accessToken];
  },
  async oauthCallback(code) {
    await api(
      world,
      "GET",
      `/auth/oauth/callback/github?code=${encodeURIComponent(code)}&state=${encodeURIComponent(`${code}-state`)}`,
      {},
    );
    return [code];
  },
  async magicLink() {
    const email = freshEmail();
    const sent = await api(world, "POST", "/auth/otp/send-sign-in-code", keyHeaders("dev", "client"), {
      body: { email, callback_url: TRUSTED_CALLBACK },
    });
    const mail = world.provider.outbox.latest({ to: email })!;
    const signedIn = await api(world, "POST", "/auth/otp/sign-in", keyHeaders("dev", "client"), {
      body: { code: `${mail.otp!}${String(sent.json?.nonce)}` },
    });
    return [mail.code!, mail.otp!, ...field(sent, "nonce"), ...tokensOf(signedIn)];
  },
  async passwordReset(next) {
    await api(world, "POST", "/auth/password/send-reset-code", keyHeaders("dev", "client"), {
      body: { email: world.users.b.email, callback_url: TRUSTED_CALLBACK },
    });
    const code = world.provider.outbox.latest({ to: world.users.b.email!, kind: "password_reset" })!.code!;
    await api(world, "POST", "/auth/password/reset/check-code", keyHeaders("dev", "client"), { body: { code } });
    await api(world, "POST", "/auth/password/reset", keyHeaders("dev", "client"), { body: { code, password: next } });
    return [code, next];
  },
  async apiKeys() {
    const created = await api(world, "POST", "/user-api-keys", asA(), {
      body: { user_id: "me", description: "log", expires_at_millis: null },
    });
    const value = String(created.json?.value);
    await api(world, "POST", "/user-api-keys/check", keyHeaders("dev", "server"), { body: { api_key: value } });
    return [value];
  },
  async internalApiKeys() {
    const created = await api(world, "POST", "/internal/api-keys", keyHeaders("dev", "admin"), {
      body: {
        description: "log",
        expires_at_millis: world.provider.clock.now() + 86_400_000,
        has_publishable_client_key: true,
        has_secret_server_key: true,
        has_super_secret_admin_key: true,
      },
    });
    return ["publishable_client_key", "secret_server_key", "super_secret_admin_key"].flatMap((k) => field(created, k));
  },
  async totpAndImportedHash(secret) {
    const totp = Buffer.from(secret).toString("base64");
    await api(world, "PATCH", `/users/${world.users.b.userId}`, keyHeaders("dev", "server"), {
      body: { totp_secret_base64: totp },
    });
    const hash = `pbkdf2-sha256$1000$${Buffer.from(`${secret}salt`).toString("base64")}$${Buffer.from(`${secret}hash`).toString("base64")}`;
    await api(world, "POST", "/users", keyHeaders("dev", "server"), {
      body: { primary_email: freshEmail(), password_hash: hash },
    });
    return [totp, hash];
  },
  async vault(secret) {
    const body = { hashed_key: `${secret}-key`, encrypted_value: `${secret}-value` };
    await api(world, "POST", "/data-vault/stores/default/set", keyHeaders("dev", "server"), { body });
    await api(world, "POST", "/data-vault/stores/default/get", keyHeaders("dev", "server"), {
      body: { hashed_key: body.hashed_key },
    });
    await api(world, "POST", "/data-vault/stores/default/get", keyHeaders("dev", "server"), {
      body: { hashed_key: `${secret}-missing` },
    });
    return [body.hashed_key, body.encrypted_value, `${secret}-missing`];
  },
  async cliLogin() {
    const created = await api(world, "POST", "/auth/cli", keyHeaders("dev", "client"), { body: {} });
    const [polling, login] = [...field(created, "polling_code"), ...field(created, "login_code")];
    await api(world, "POST", "/auth/cli/complete", asA(), {
      body: { login_code: login, refresh_token: world.users.a.refreshToken },
    });
    const polled = await api(world, "POST", "/auth/cli/poll", keyHeaders("dev", "client"), {
      body: { polling_code: polling },
    });
    return [polling!, login!, world.users.a.refreshToken, ...field(polled, "refresh_token")];
  },
  async secretsWhereTheyDoNotBelong(secret) {
    // In the query, under secret names and innocent ones, and in the headers the log does record (project, access type).
    await api(world, "GET", `/users/me?access_token=${world.users.a.accessToken}`, asA());
    await api(
      world,
      "GET",
      `/projects/current?refresh_token=${world.users.a.refreshToken}&password=${encodeURIComponent(secret)}`,
      keyHeaders("dev", "client"),
    );
    await api(world, "GET", `/users?query=${world.users.b.refreshToken}`, keyHeaders("dev", "server"));
    await api(world, "GET", `/no/such/${world.users.b.refreshToken}`, keyHeaders("dev", "client"));
    await api(world, "GET", "/users/me", { accessType: world.users.a.accessToken, projectId: projects.dev.id });
    await api(world, "GET", "/users/me", { accessType: "client", projectId: world.users.b.refreshToken });
    return [world.users.a.accessToken, world.users.a.refreshToken, world.users.b.refreshToken, secret];
  },
};
const names = Object.keys(operations);

/** The log as the dashboard and an export see it: in process, and over the control endpoint. */
async function exportedLog(): Promise<string> {
  const response = await controlClient({ baseUrl: ORIGIN, fetch: world.provider.fetch }).send("requests");
  expect(response.status).toBe(200);
  return `${JSON.stringify(world.provider.requestLog.list())}\n${await response.text()}`;
}

/** A leak is the secret, or any 12 characters of it in a row (a masked value keeps only its last four). */
function leaks(log: string, secret: string): string | null {
  if (log.includes(secret)) return secret;
  for (let i = 0; i + 12 <= secret.length; i += 1)
    if (log.includes(secret.slice(i, i + 12))) return secret.slice(i, i + 12);
  return null;
}

async function runAndCheck(steps: { name: string; secret: string }[]): Promise<void> {
  world.provider.restore(world.baseline);
  world.provider.requestLog.clear();
  const secrets = new Set<string>();
  for (const step of steps) for (const s of await operations[step.name]!(step.secret)) secrets.add(s);
  const log = await exportedLog();
  expect(world.provider.requestLog.list().length).toBeGreaterThanOrEqual(steps.length);
  for (const secret of [...secrets, ...worldSecrets(world), ...world.codes]) {
    if (secret.length < 6) continue;
    expect(
      leaks(log, secret),
      `${steps.map((s) => s.name).join(", ")} leaked a part of ${secret.slice(0, 6)}…`,
    ).toBeNull();
  }
}

describe("the request log holds no secret", () => {
  it("after every operation that carries one, each run once", async () => {
    await runAndCheck(names.map((name, i) => ({ name, secret: `Pw-every-operation-${i}-k3Jd9QzX7vLm` })));
    // The log still says what happened: the paths, the operations and the masked OAuth query.
    const entries = world.provider.requestLog.list();
    expect(entries.map((e) => e.operationId)).toEqual(
      expect.arrayContaining(["oauthAuthorize", "oauthToken", "otpSignIn", "cliPoll", "createUserApiKey"]),
    );
    const authorize = entries.find((e) => e.operationId === "oauthAuthorize")!;
    expect(authorize.query).toMatch(/&token=\[redacted:[^\]]{4}\]&/);
    expect(authorize.query).toContain(`client_id=${projects.dev.id}`);
    expect(entries.find((e) => e.accessType !== null && e.accessType.startsWith("[redacted"))?.why.join(" ")).toContain(
      "INVALID_ACCESS_TYPE",
    );
    expect(world.unexpected).toEqual([]);
  });

  it("after any sequence of them, with fresh secrets", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ name: fc.constantFrom(...names), secret: secretArb }), { minLength: 1, maxLength: 5 }),
        runAndCheck,
      ),
      { numRuns: 25 },
    );
    expect(world.unexpected).toEqual([]);
  });
});
