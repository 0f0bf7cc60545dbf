import type { z } from "zod";
import {
  CONTROL_PREFIX,
  controlEndpoints,
  type ControlAnswer,
  type ControlEndpoint,
  type ControlEndpointName,
  type ControlEndpoints,
  type ControlQuery,
} from "./control-contract.ts";
import { fillPathParams } from "../contract/path-params.ts";
import { controlFailure } from "./control-schemas.ts";

/**
 * The one client of the emulator's control plane (control-contract.ts): `call("advanceClock", { body: { millis } })`
 * sends the request the contract describes and answers its typed, checked answer; a failure throws ControlError with
 * the status and the emulator's message. Fetch-based, with the base URL and fetch injectable, so it runs in a browser
 * (the dashboard: base URL "" for its own origin), against a server at any URL (conformance), and in process (tests:
 * `fetch: provider.fetch`).
 */

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type ParamsInput<E extends ControlEndpoint> = [ParamNames<E["path"]>] extends [never]
  ? unknown
  : { params: Record<ParamNames<E["path"]>, string> };
type QueryInput<E extends ControlEndpoint> = E extends { query: ControlQuery<infer S> }
  ? { query?: Partial<z.output<S>> }
  : unknown;
type BodyInput<E extends ControlEndpoint> = E extends { body: infer B extends z.ZodType }
  ? { body: z.input<B> }
  : unknown;

/** What a call of endpoint K takes: its path parameters, query (camel case, as the contract's schema) and body. */
export type ControlInput<K extends ControlEndpointName> = ParamsInput<ControlEndpoints[K]> &
  QueryInput<ControlEndpoints[K]> &
  BodyInput<ControlEndpoints[K]>;
type InputArgs<K extends ControlEndpointName> =
  Record<string, never> extends ControlInput<K> ? [input?: ControlInput<K>] : [input: ControlInput<K>];

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ControlClientOptions {
  /** The emulator's origin (and any path before /__emulator), e.g. http://localhost:8102; "" for the page's own. */
  baseUrl: string;
  /** Defaults to the global fetch; pass `provider.fetch` to reach an in-process emulator. */
  fetch?: FetchLike;
  /** Headers sent with every call (e.g. an Origin a test plays). */
  headers?: Record<string, string>;
}

export class ControlError extends Error {
  override readonly name = "ControlError";
  constructor(
    readonly endpoint: ControlEndpointName,
    readonly status: number,
    /** The emulator's `error` (with its schema problems), or the answer's text when it was not the failure shape. */
    readonly reason: string,
  ) {
    super(
      `${controlEndpoints[endpoint].method} ${CONTROL_PREFIX}${controlEndpoints[endpoint].path} answered ${status}: ${reason}`,
    );
  }
}

export interface ControlClient {
  /** Calls an endpoint and answers its success body, checked against the contract; throws ControlError otherwise. */
  call<K extends ControlEndpointName>(name: K, ...input: InputArgs<K>): Promise<ControlAnswer<K>>;
  /** The raw exchange, for callers that assert statuses and failure bodies themselves. */
  send<K extends ControlEndpointName>(name: K, ...input: InputArgs<K>): Promise<Response>;
  /** The URL of an endpoint, e.g. for a link or a curl line. */
  url<K extends ControlEndpointName>(name: K, ...input: InputArgs<K>): string;
}

interface AnyInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

function urlOf(baseUrl: string, endpoint: ControlEndpoint, input: AnyInput): string {
  const path = fillPathParams(endpoint.path, (name) => {
    const value = input.params?.[name];
    if (value === undefined) throw new TypeError(`Missing path parameter ${name} of ${endpoint.path}.`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  const names: Record<string, string> = endpoint.query?.names ?? {};
  for (const [key, value] of Object.entries(input.query ?? {})) {
    const name = names[key];
    if (name === undefined) throw new TypeError(`${endpoint.path} has no query field ${key}.`);
    for (const one of Array.isArray(value) ? value : [value])
      if (one !== undefined && one !== null && one !== "") search.append(name, String(one));
  }
  const query = search.toString();
  return `${baseUrl.replace(/\/+$/, "")}${CONTROL_PREFIX}${path}${query ? `?${query}` : ""}`;
}

/** The failure's message: the emulator's `error` and its problems, else the text (e.g. a guard's plain answer). */
function reasonOf(text: string): string {
  try {
    const failure = controlFailure.safeParse(JSON.parse(text));
    if (failure.success)
      return failure.data.issues ? `${failure.data.error}: ${failure.data.issues.join("; ")}` : failure.data.error;
  } catch {
    // Not JSON: the text is the message.
  }
  return text;
}

export function controlClient(options: ControlClientOptions): ControlClient {
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  const send = (name: ControlEndpointName, input: AnyInput = {}) => {
    const endpoint: ControlEndpoint = controlEndpoints[name];
    // State changes are JSON even without a body: the control plane refuses any other type (safety/request-guard.ts).
    const headers = {
      ...options.headers,
      ...(endpoint.method !== "GET" ? { "content-type": "application/json" } : {}),
    };
    const init: RequestInit = { method: endpoint.method, headers };
    if (input.body !== undefined) init.body = JSON.stringify(input.body);
    return fetchFn(urlOf(options.baseUrl, endpoint, input), init);
  };
  const call = async (name: ControlEndpointName, input: AnyInput = {}) => {
    const response = await send(name, input);
    const text = await response.text();
    if (!response.ok) throw new ControlError(name, response.status, reasonOf(text) || `HTTP ${response.status}`);
    const answer = controlEndpoints[name].response.safeParse(text.length > 0 ? JSON.parse(text) : null);
    if (!answer.success)
      throw new ControlError(
        name,
        response.status,
        `the answer does not match the control contract: ${answer.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      );
    return answer.data;
  };
  return {
    call: call as ControlClient["call"],
    send: send as ControlClient["send"],
    url: ((name: ControlEndpointName, input: AnyInput = {}) =>
      urlOf(options.baseUrl, controlEndpoints[name], input)) as ControlClient["url"],
  };
}
