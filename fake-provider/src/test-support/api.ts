import { decodeJwt } from "jose";
import { afterEach, beforeEach, expect } from "vitest";
import { devProjectSeed, internalProjectSeed, type ProjectSeed } from "@authsim/fixtures";
import {
  accessTokenClaims,
  headerNames,
  knownErrorSpec,
  rebranded,
  signInResponse,
  type AccessTokenClaims,
  type ConcreteKnownErrorCode,
  type HeaderKey,
  type SignInResponse,
} from "@authsim/sdk/contract";
import { manualClock, seededRandom } from "@authsim/sdk/runtime";
import { createFakeProvider, type FakeProvider, type FakeProviderOptions } from "../app.ts";
import { START_MILLIS } from "./start.ts";

/**
 * Shared helpers for the fake provider's unit tests: a deterministic provider, request headers in either family
 * (protocol.md §0: x-stack-* and x-hexclave-*), and the known-error wire assertion of protocol.md §3.1.
 */

export const DEV = devProjectSeed;
export const INTERNAL = internalProjectSeed;
export { START_MILLIS } from "./start.ts";
export const ORIGIN = "http://localhost:8102";
export const ACCESS_TOKEN_LIFETIME_MILLIS = 600_000;

export interface TestProvider extends FakeProvider {
  /** Errors the provider answered with a 500 (none is expected anywhere). */
  unexpected: unknown[];
}

export function newProvider(options: FakeProviderOptions = {}): TestProvider {
  const unexpected: unknown[] = [];
  const provider = createFakeProvider({
    clock: manualClock(START_MILLIS),
    ids: seededRandom("fake-provider-tests"),
    onUnexpectedError: (error) => unexpected.push(error),
    ...options,
  });
  return Object.assign(provider, { unexpected });
}

/** A provider whose dev project has some config flags changed (e.g. sign_up_enabled: false). */
export function providerWithDevConfig(config: Partial<Record<string, boolean>>): TestProvider {
  return newProvider({ seed: { projects: [{ ...DEV, config: { ...DEV.config, ...config } }] } });
}

export type Family = "stack" | "hexclave";
export const families: readonly Family[] = ["stack", "hexclave"];

/** Request headers by contract key; a value of "" is sent as an empty header. */
export type Fields = Partial<Record<HeaderKey, string>>;

export function wire(fields: Fields, family: Family = "stack"): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields) as [HeaderKey, string | undefined][]) {
    if (value === undefined) continue;
    out[family === "stack" ? headerNames[key] : rebranded(headerNames[key])] = value;
  }
  return out;
}

export const client = (extra: Fields = {}, project: ProjectSeed = DEV): Fields => ({
  accessType: "client",
  projectId: project.id,
  publishableClientKey: project.keys.publishable_client_key,
  ...extra,
});
export const server = (extra: Fields = {}, project: ProjectSeed = DEV): Fields => ({
  accessType: "server",
  projectId: project.id,
  secretServerKey: project.keys.secret_server_key,
  ...extra,
});
export const admin = (extra: Fields = {}, project: ProjectSeed = DEV): Fields => ({
  accessType: "admin",
  projectId: project.id,
  superSecretAdminKey: project.keys.super_secret_admin_key,
  ...extra,
});

export interface CallOptions {
  method?: string;
  headers?: Fields;
  family?: Family;
  /** Extra headers sent verbatim. */
  raw?: Record<string, string>;
  /** A JSON body (content-type application/json). */
  json?: unknown;
  /** A body sent verbatim, with `contentType` if given. */
  body?: string;
  contentType?: string;
}

/** Calls `/api/v1{path}` in process. */
export function api(provider: FakeProvider, path: string, options: CallOptions = {}): Promise<Response> {
  // The root is /api/v1 itself (the SDK strips a trailing slash, protocol.md §1).
  const rooted = path === "/" || path.startsWith("/?") ? path.slice(1) : path;
  return request(provider, `/api/v1${rooted}`, options);
}

/** Calls any path of the provider (control endpoints, /health). */
export function request(provider: FakeProvider, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...wire(options.headers ?? {}, options.family), ...options.raw };
  let body: string | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] = "application/json";
  }
  if (options.contentType !== undefined) headers["content-type"] = options.contentType;
  return provider.fetch(`${ORIGIN}${path}`, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
}

export interface KnownErrorWire {
  code: string;
  error: string;
  details?: Record<string, unknown>;
}

/**
 * Asserts the known-error wire shape (protocol.md §3.1): the status (also the catalogue's), the known-error header in
 * exactly one family (`family` when given, else whichever the answer used), a JSON content type and `body.code`.
 * Returns the body for checks of `details` and `error`.
 */
export async function expectKnownError(
  response: Response,
  code: ConcreteKnownErrorCode,
  status: number,
  family?: Family,
): Promise<KnownErrorWire> {
  expect(knownErrorSpec(code).status, `catalogue status of ${code}`).toBe(status);
  const text = await response.text();
  expect({ status: response.status, body: text }).toMatchObject({ status });
  const codes = {
    stack: response.headers.get("x-stack-known-error"),
    hexclave: response.headers.get("x-hexclave-known-error"),
  };
  const used = family ?? (codes.stack !== null ? "stack" : "hexclave");
  expect(codes).toEqual(used === "stack" ? { stack: code, hexclave: null } : { stack: null, hexclave: code });
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const body = JSON.parse(text) as KnownErrorWire;
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe("string");
  return body;
}

/** Asserts a 2xx JSON answer and returns its body. */
export async function expectJson<T = Record<string, unknown>>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect({ status: response.status, body: text }).toMatchObject({ status });
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  return JSON.parse(text) as T;
}

let emailCounter = 0;
/** A fresh address per call (a counter, not randomness, so runs are reproducible). */
export function freshEmail(prefix = "user"): string {
  emailCounter += 1;
  return `${prefix}${emailCounter}@example.com`;
}

export const PASSWORD = "correct horse battery";

export interface SignedUp extends SignInResponse {
  email: string;
  password: string;
}

export async function signUp(
  provider: FakeProvider,
  options: { email?: string; password?: string; project?: ProjectSeed; headers?: Fields } = {},
): Promise<SignedUp> {
  const email = options.email ?? freshEmail();
  const password = options.password ?? PASSWORD;
  const project = options.project ?? DEV;
  const response = await api(provider, "/auth/password/sign-up", {
    headers: { ...client({}, project), ...options.headers },
    json: { email, password },
  });
  return { ...signInResponse.parse(await expectJson(response)), email, password };
}

export async function anonymousSignUp(provider: FakeProvider, project: ProjectSeed = DEV): Promise<SignInResponse> {
  const response = await api(provider, "/auth/anonymous/sign-up", { method: "POST", headers: client({}, project) });
  return signInResponse.parse(await expectJson(response));
}

/** Decodes (without verifying) and validates an access token against the contract's claim schema. */
export function claimsOf(token: string): AccessTokenClaims {
  return accessTokenClaims.parse(decodeJwt(token));
}

/** POST /auth/oauth/token with a form body, as oauth4webapi sends it (protocol.md §4.4). */
export function tokenRequest(provider: FakeProvider, form: Record<string, string>): Promise<Response> {
  return api(provider, "/auth/oauth/token", {
    method: "POST",
    body: new URLSearchParams(form).toString(),
    contentType: "application/x-www-form-urlencoded",
  });
}

export function refreshGrant(
  provider: FakeProvider,
  refreshToken: string,
  project: ProjectSeed = DEV,
): Promise<Response> {
  return tokenRequest(provider, {
    grant_type: "refresh_token",
    client_id: project.id,
    client_secret: project.keys.publishable_client_key,
    refresh_token: refreshToken,
  });
}

/** Advances the provider's clock past the lifetime of every access token minted so far. */
export function expireAccessTokens(provider: FakeProvider): void {
  provider.clock.advance(ACCESS_TOKEN_LIFETIME_MILLIS + 1_000);
}

/**
 * The usual set-up of an HTTP test file: before each test a fresh provider and a user signed up on it, handed to `use`;
 * after each, no unexpected provider error (500).
 */
export function eachTestSignedUp(use: (provider: TestProvider, user: SignedUp) => void): void {
  let provider: TestProvider;
  beforeEach(async () => {
    provider = newProvider();
    use(provider, await signUp(provider));
  });
  afterEach(() => expect(provider.unexpected).toEqual([]));
}
