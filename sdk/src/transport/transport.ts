import type { z } from "zod";
import { API_PREFIX, constants, INFINITE_LOOP_MARKER, OFFLINE_MESSAGE } from "../contract/headers.ts";
import { actualStatus, decodeKnownError } from "../errors/decode.ts";
import { isKnownErrorOfType } from "../errors/known-error.ts";
import { ConnectionError, HttpError, ResponseSchemaError } from "../errors/sdk-errors.ts";
import { realSleep, systemClock, type Clock, type Sleep } from "../runtime/clock.ts";
import { cryptoRandom, type RandomSource } from "../runtime/ids.ts";
import { backoffDelay, isIdempotent, retryAfterMillis } from "./backoff.ts";
import { buildRequestHeaders, SDK_HEADER_FAMILY, type ProjectCredentials } from "./headers.ts";

/**
 * The one way the SDK talks to `/api/v1` (spec §7, §8 transport; protocol.md §1, §2.1, §9): headers, nonce, retries
 * with backoff and jitter, 429 Retry-After, 508 loop marker, offline message, known-error decoding, and the
 * invalid-access-token refresh-and-retry.
 */

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** What the transport needs from a user session (implemented by session/session.ts). */
export interface UserTokenSource {
  getAccessToken(): Promise<string | null>;
  getRefreshToken(): string | null;
  markAccessTokenExpired(accessToken: string): void;
}

/** What the transport needs from an admin (project-owner) session (session/admin-session.ts). */
export interface AdminTokenSource {
  getAdminAccessToken(): Promise<string | null>;
  markAdminAccessTokenExpired(token: string): void;
}

export interface TransportOptions extends ProjectCredentials {
  baseUrl: string;
  adminSession?: AdminTokenSource | null;
  extraRequestHeaders?: Record<string, string>;
  fetch?: FetchLike;
  clock?: Clock;
  sleep?: Sleep;
  random?: RandomSource;
  /** Defaults to `navigator.onLine` where it exists (spec §8: offline gets its own message). */
  isOnline?: () => boolean;
}

import type { QueryValue } from "../contract/operation-calls.ts";
export type { QueryValue };

export interface RequestOptions {
  method?: string;
  /** A JSON body. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  session?: UserTokenSource | null;
  /** Sends x-stack-allow-anonymous-user: true (only when the caller accepts anonymous users). */
  allowAnonymousUser?: boolean;
}

export interface BareRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  query?: Record<string, QueryValue>;
}

export interface TransportResponse {
  /** The real status (rebuilt from x-*-actual-status). */
  status: number;
  headers: Headers;
  text: string;
  url: string;
}

export interface Transport {
  readonly projectId: string;
  readonly accessType: ProjectCredentials["accessType"];
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly random: RandomSource;
  url(path: string, query?: Record<string, QueryValue>): string;
  request(path: string, options?: RequestOptions): Promise<TransportResponse>;
  requestJson<S extends z.ZodType>(path: string, options: RequestOptions, schema: S): Promise<z.output<S>>;
  /** Without any x-stack header: the OAuth token endpoint and the JWKS are plain HTTP (protocol.md §4.4). */
  requestBare(path: string, options?: BareRequestOptions): Promise<TransportResponse>;
  parseJson<S extends z.ZodType>(response: TransportResponse, schema: S): z.output<S>;
}

function defaultIsOnline(): boolean {
  const nav = (globalThis as { navigator?: { onLine?: unknown } }).navigator;
  return nav?.onLine !== false;
}

function buildUrl(baseUrl: string, path: string, query: Record<string, QueryValue> = {}): string {
  // protocol.md §1: {baseUrl}/api/v1 + path, with the trailing slash stripped.
  const base = baseUrl.replace(/\/+$/, "") + API_PREFIX;
  const full = (base + (path.startsWith("/") ? path : `/${path}`)).replace(/\/+$/, "");
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${full}?${qs}` : full;
}

export function createTransport(options: TransportOptions): Transport {
  const fetchFn: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const clock = options.clock ?? systemClock;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? cryptoRandom;
  const isOnline = options.isOnline ?? defaultIsOnline;

  function connectionError(url: string, method: string, attempts: number, cause: unknown): ConnectionError {
    const diagnostics = { url, method, attempts, cause };
    if (!isOnline()) return new ConnectionError(OFFLINE_MESSAGE, diagnostics);
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new ConnectionError(
      `Unable to connect to the authentication server at ${url} (${method}, ${attempts} attempt${attempts === 1 ? "" : "s"}): ${reason}. ` +
        "Check that the base URL is right and that the server is reachable.",
      diagnostics,
    );
  }

  /** One logical request: network, 429 and 508 retries share the attempt budget of spec §9. */
  async function send(url: string, init: RequestInit & { method: string }): Promise<TransportResponse> {
    const method = init.method;
    const maxAttempts = constants.networkRetries;
    for (let attempt = 0; ; attempt++) {
      const isLast = attempt >= maxAttempts - 1;
      let res: Response;
      try {
        res = await fetchFn(url, { ...init, credentials: "omit", cache: "no-store" });
      } catch (e) {
        // fetch rejects with a TypeError on network failure; anything else (e.g. an abort) is not ours to retry.
        if (!(e instanceof TypeError)) throw e;
        // A POST/PATCH may have reached the server: repeating it could apply it twice (protocol.md §9).
        if (!isIdempotent(method) || isLast) throw connectionError(url, method, attempt + 1, e);
        await sleep(backoffDelay(attempt, random));
        continue;
      }
      const text = await res.text();
      const known = decodeKnownError(res.status, res.headers, text, SDK_HEADER_FAMILY);
      if (known) throw known;
      const status = actualStatus(res.status, res.headers, SDK_HEADER_FAMILY);
      if (status === 429 && !isLast) {
        // spec §4: wait for Retry-After seconds, then retry; without it, back off as for a network failure.
        await sleep(retryAfterMillis(res.headers.get("retry-after")) ?? backoffDelay(attempt, random));
        continue;
      }
      if (status === 508 && text.includes(INFINITE_LOOP_MARKER) && !isLast) {
        await sleep(backoffDelay(attempt, random));
        continue;
      }
      if (status >= 400) throw new HttpError(url, method, status, text);
      return { status, headers: res.headers, text, url };
    }
  }

  function parseJson<S extends z.ZodType>(response: TransportResponse, schema: S): z.output<S> {
    let value: unknown;
    try {
      value = JSON.parse(response.text);
    } catch {
      throw new ResponseSchemaError(response.url, `not JSON: ${response.text.slice(0, 200)}`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new ResponseSchemaError(response.url, parsed.error.message);
    return parsed.data;
  }

  const credentials: ProjectCredentials = {
    projectId: options.projectId,
    accessType: options.accessType,
    publishableClientKey: options.publishableClientKey,
    secretServerKey: options.secretServerKey,
    superSecretAdminKey: options.superSecretAdminKey,
  };

  async function request(path: string, req: RequestOptions = {}): Promise<TransportResponse> {
    const method = (req.method ?? "GET").toUpperCase();
    const url = buildUrl(options.baseUrl, path, req.query);
    const session = req.session ?? null;
    const adminSession = options.adminSession ?? null;
    let retriedAccessToken = false;
    let retriedAdminToken = false;
    for (;;) {
      const accessToken = session ? await session.getAccessToken() : null;
      const adminAccessToken = adminSession ? await adminSession.getAdminAccessToken() : null;
      const auth = {
        accessToken,
        refreshToken: session?.getRefreshToken() ?? null,
        adminAccessToken,
        allowAnonymousUser: req.allowAnonymousUser,
      };
      const headers = {
        ...(req.body !== undefined ? { "content-type": "application/json" } : {}),
        ...buildRequestHeaders(credentials, auth, random, options.extraRequestHeaders),
      };
      const body = req.body !== undefined ? JSON.stringify(req.body) : undefined;
      try {
        return await send(url, { method, headers, body });
      } catch (e) {
        // spec §4: an invalid access token marks it expired; the request is retried once with a fresh one.
        if (session && accessToken && !retriedAccessToken && isKnownErrorOfType(e, "INVALID_ACCESS_TOKEN")) {
          session.markAccessTokenExpired(accessToken);
          retriedAccessToken = true;
          continue;
        }
        // protocol.md §3.1: the same for the admin access token of a project-owner session.
        if (
          adminSession &&
          adminAccessToken &&
          !retriedAdminToken &&
          isKnownErrorOfType(e, "INVALID_ADMIN_ACCESS_TOKEN")
        ) {
          adminSession.markAdminAccessTokenExpired(adminAccessToken);
          retriedAdminToken = true;
          continue;
        }
        throw e;
      }
    }
  }

  return {
    projectId: options.projectId,
    accessType: options.accessType,
    clock,
    sleep,
    random,
    url: (path, query) => buildUrl(options.baseUrl, path, query),
    request,
    async requestJson(path, req, schema) {
      return parseJson(await request(path, req), schema);
    },
    requestBare(path, bare = {}) {
      const method = (bare.method ?? "GET").toUpperCase();
      return send(buildUrl(options.baseUrl, path, bare.query), {
        method,
        headers: bare.headers ?? {},
        body: bare.body,
      });
    },
    parseJson,
  };
}
