import type { Hono } from "hono";
import type { Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { tryDecodeURIComponent } from "hono/utils/url";
import {
  anyParams,
  API_PREFIXES,
  bodyForCaller,
  headerName,
  noQuery,
  operations,
  type AccessType,
  type HeaderFamily,
  type Operation,
  type OperationId,
  type RequestBody,
  type RequestParams,
  type RequestQuery,
} from "@authsim/sdk/contract";
import { randomBase32, type RandomSource } from "@authsim/sdk/runtime";
import { hasStackHeader } from "../auth/headers.ts";
import { parseAuth, requireAccess } from "../auth/parse-auth.ts";
import type { ControllableClock } from "../../clock.ts";
import { corsHeaders } from "../http/cors.ts";
import { errorToResponse } from "../http/errors-to-response.ts";
import { endUserFromHeaders } from "../http/end-user.ts";
import { familyOf } from "../http/family.ts";
import { urlOf } from "../http/request-url.ts";
import { check, readBody, schemaError } from "../http/parse.ts";
import { applyOverrideErrorStatus, json } from "../http/respond.ts";
import type { ProviderSettings } from "../../domain/ops/context.ts";
import type { Store } from "../../domain/store/store.ts";
import { explainFailure, traceOf, type PipelineStage } from "../../emulator/request-log/trace.ts";
import type { RouteFor, RouteResult, RouteTable } from "./define.ts";
import { runOp } from "../../domain/run-op.ts";
import type { CryptoBackend } from "../../domain/auth/crypto-backend.ts";
import { holdsUnsignedToken, signAccessToken } from "../../domain/auth/tokens.ts";
import { implementedRoutes } from "./index.ts";

export interface MountDeps {
  store: Store;
  clock: ControllableClock;
  random: RandomSource;
  settings: ProviderSettings;
  onUnexpectedError: (error: unknown) => void;
  onAnswer?: (answer: OperationAnswer) => void;
}

/**
 * One answer of a contract operation, as its route gave it: before the override-error-status convention can turn a 4xx
 * into a 200, and before faults (which answer instead of the route, so never reach here). `response` is a copy the
 * observer may read at leisure. It lets a test hold every answer to the contract's response table without wrapping
 * fetch and matching paths to operations again.
 */
export interface OperationAnswer {
  operationId: OperationId;
  request: Request;
  response: Response;
}

const allowedTypes: Record<Operation["access"], readonly AccessType[]> = {
  none: ["client", "server", "admin"],
  client: ["client", "server", "admin"],
  server: ["server", "admin"],
  admin: ["admin"],
};

/** What a method and path of the API reach: an operation under one prefix, or a 405 (a path served by other methods). */
type Target = { operation: Operation; prefix: string } | { methodNotAllowed: true };

let operationRouter: Router<Target> | null = null;

/**
 * Every contract operation under each API prefix (`/api/v1` and `/api/latest` answer alike), then the 405s, in one
 * router for the process, built on first use: registering some 700 routes on every provider's app, and building its
 * matcher again, was most of what a fresh provider cost (issue 30). The operations and their paths are the contract's,
 * the same for every provider; what differs (the state, the route table) is the app's own, in mountOperations.
 */
function operationTargets(): Router<Target> {
  if (operationRouter) return operationRouter;
  // Hono's own default router: the RegExp router, or the trie where a path is beyond it.
  const router = new SmartRouter<Target>({ routers: [new RegExpRouter(), new TrieRouter()] });
  for (const prefix of API_PREFIXES) {
    const served = new Map<string, Set<string>>();
    for (const operation of operations) {
      const path = operation.path === "/" ? prefix : prefix + operation.path;
      router.add(operation.method, path, { operation, prefix });
      served.set(path, (served.get(path) ?? new Set()).add(operation.method));
    }
    // Added after every operation, so a request another path pattern serves (`/users/me` beside `/users/:id`) still
    // reaches its operation first: the first match answers.
    for (const [path, methods] of served)
      for (const method of SERVABLE_METHODS)
        if (!methods.has(method)) router.add(method, path, { methodNotAllowed: true });
  }
  return (operationRouter = router);
}

/** The first target for a method and path, with its path parameters decoded as Hono's `c.req.param()` decodes them. */
function matchOperation(method: string, path: string): { target: Target; params: Record<string, string> } | null {
  const [found, stash] = operationTargets().match(method, path);
  const first = found[0];
  if (!first) return null;
  const params: Record<string, string> = {};
  for (const [name, at] of Object.entries(first[1])) {
    const value = stash ? stash[at as number] : (at as string);
    if (value !== undefined) params[name] = tryDecodeURIComponent(value);
  }
  return { target: first[0], params };
}

/**
 * Serves every contract operation on the app through one middleware over the process's router (operationTargets):
 * implemented ones run the pipeline, the others answer 501, and a path served by other methods answers 405. `routes`
 * is a parameter so the 501 rule stays testable now that every operation of the contract is implemented.
 */
export function mountOperations(app: Hono, deps: MountDeps, routes: RouteTable = implementedRoutes): void {
  app.use("/api/*", async (c, next) => {
    // Hono matches a HEAD as its GET (and answers without the body).
    const match = matchOperation(c.req.method === "HEAD" ? "GET" : c.req.method, c.req.path);
    if (!match) return next();
    const request = c.req.raw;
    const { target } = match;
    if ("methodNotAllowed" in target) return methodNotAllowed(request, deps.random);
    const { operation, prefix } = target;
    // Each handler is typed by its own operation (RouteTable); here, where one function serves them all, by any.
    const spec: RouteFor<OperationId> | undefined = routes[operation.id];
    traceOf(request).operationId = operation.id;
    if (!spec) traceOf(request).why.push(`op ${operation.id} is not implemented yet (501)`);
    const response = spec
      ? await handle(operation, spec, request, match.params, deps)
      : notImplemented(operation, prefix);
    deps.onAnswer?.({ operationId: operation.id, request, response: response.clone() });
    return finish(response, request, deps.random);
  });
}

const SERVABLE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * A path the API serves asked with a method it does not serve: the real service's framework answers an empty 405
 * for a route file that exports no handler for the method, before any authentication (an unknown path is the
 * plain-text 404 of app.ts). OPTIONS is the CORS preflight, answered before the operations; methods outside the
 * API's set keep app.ts's plain-text 405.
 */
function methodNotAllowed(request: Request, random: RandomSource): Response {
  traceOf(request).why.push(`no operation serves ${request.method} on this path (405)`);
  return finish(new Response(null, { status: 405 }), request, random);
}

function notImplemented(operation: Operation, prefix: string): Response {
  return json(
    {
      error: `authsim does not implement ${operation.method} ${prefix}${operation.path === "/" ? "" : operation.path} (${operation.id}) yet.`,
      operation_id: operation.id,
      hint: "The operation is part of the contract; its area has not been built in the fake provider yet.",
    },
    501,
  );
}

async function handle(
  operation: Operation,
  spec: RouteFor<OperationId>,
  request: Request,
  rawParams: Record<string, string>,
  deps: MountDeps,
): Promise<Response> {
  const url = urlOf(request);
  // How far the request got, so the request log can say which rule refused it (emulator/request-log/trace.ts).
  let stage: PipelineStage = "body";
  try {
    // The body is parsed before authentication, as upstream's createSmartRequest does: BODY_PARSING_ERROR wins over
    // every §2.3 error. Reading it outside the transaction also keeps the store's lock short.
    const rawBody = await readBody(request);
    stage = "auth";
    const endUser = endUserFromHeaders(request.headers);
    // One transaction for the whole request (runOp keeps what the op asked to keep if it fails).
    const result = await runOp(
      deps,
      async (ctx) => {
        const auth = await parseAuth(ctx.tables, request.headers, ctx.now, deps.settings.crypto);
        traceOf(request).userId = auth?.user?.id ?? null;
        stage = "access";
        // The caller the handler gets: for an operation that needs project authentication, the one access let through.
        const caller =
          operation.access === "none" ? auth : requireAccess(auth, spec.access ?? allowedTypes[operation.access]);
        stage = "schema";
        // Every part is checked before failing, so one SCHEMA_ERROR names all the problems (as upstream's does). The
        // schemas are the operation's contract definition (sdk/src/contract/areas/<area>.ts).
        const entry = operation.request;
        const params = check(entry.params ?? anyParams, rawParams, "params");
        const query = check(entry.query ?? noQuery, Object.fromEntries(url.searchParams), "query");
        const body = check(bodyForCaller(entry, auth?.type ?? null), rawBody, "body");
        // Headers after the body, as upstream's request schema lists them (the integrations' Basic credentials).
        const headers = entry.headers ? check(entry.headers, Object.fromEntries(request.headers), "headers") : null;
        if (!params.ok || !query.ok || !body.ok || (headers && !headers.ok)) {
          const problems = [params, query, body, headers].flatMap((c) => (c === null || c.ok ? [] : c.problems));
          throw schemaError({ method: request.method, pathname: url.pathname }, problems);
        }
        stage = "op";
        return spec.handler({
          // Parsed by this operation's own contract schemas just above: the parts its handler is typed with.
          query: query.value as RequestQuery<OperationId>,
          body: body.value as RequestBody<OperationId>,
          params: params.value as RequestParams<OperationId>,
          auth: caller,
          ctx,
          request,
        });
      },
      endUser ? { endUser } : {},
    );
    // An access token in the answer is signed now, off the store's lock too (UnsignedAccessToken). An answer
    // without one goes out without the turn of the event loop an await would take.
    const signed = withSignedToken(result, deps.settings.crypto);
    return toResponse(signed instanceof Promise ? await signed : signed, request, deps.random);
  } catch (error) {
    explainFailure(request, stage, error);
    return errorToResponse(error, deps.onUnexpectedError, familyOf(request));
  }
}

/** The route's result with its JSON answer's access token signed; a result holding none is returned as it is. */
function withSignedToken(result: RouteResult, crypto: CryptoBackend | undefined): RouteResult | Promise<RouteResult> {
  if (result instanceof Response) return result;
  const answer = "json" in result ? result.json : result.body;
  if (!holdsUnsignedToken(answer)) return result;
  return signAccessToken(answer.access_token, crypto).then((token) => {
    const signed = { ...answer, access_token: token };
    return "json" in result ? { json: signed } : { ...result, body: signed };
  });
}

/**
 * A route's JSON answer is built with the API's headers already in it (finished): one plain object of headers, which
 * the dev server's adapter writes as it is, where adding them afterwards had it convert the object to a Headers first.
 */
function toResponse(result: RouteResult, request: Request, random: RandomSource): Response {
  if (result instanceof Response) return result;
  const headers = apiHeaders(familyOf(request), random);
  const response =
    "json" in result
      ? json(result.json, 200, headers)
      : json(result.body, result.status, result.headers ? { ...headers, ...result.headers } : headers);
  finished.add(response);
  traceOf(request).plainAnswer = response;
  return response;
}

/** Answers that already carry the API's headers (toResponse). */
const finished = new WeakSet<Response>();

/**
 * Headers every API answer carries (protocol.md §1–2), in the request's header family only, then the
 * override-error-status convention. Set on the answer itself when its headers may change (any answer the routes build):
 * a copy would have to take the body as a stream, which a server then writes in pieces (the dev server's adapter sends
 * a string body with its headers in one write, a stream in two or more). Answers with immutable headers are copied.
 */
export function finish(response: Response, request: Request, random: RandomSource): Response {
  const family = familyOf(request);
  if (finished.has(response))
    return applyOverrideErrorStatus(response, hasStackHeader(request.headers, "overrideErrorStatus"), family);
  let out = response;
  try {
    addApiHeaders(out.headers, family, random);
  } catch {
    out = new Response(response.body, { status: response.status, headers: new Headers(response.headers) });
    addApiHeaders(out.headers, family, random);
  }
  return applyOverrideErrorStatus(out, hasStackHeader(request.headers, "overrideErrorStatus"), family);
}

const corsEntries = Object.entries(corsHeaders);

function apiHeaders(family: HeaderFamily, random: RandomSource): Record<string, string> {
  return {
    "cache-control": "no-store, max-age=0",
    [headerName("requestId", family)]: randomBase32(random, 120),
    ...corsHeaders,
  };
}

function addApiHeaders(headers: Headers, family: HeaderFamily, random: RandomSource): void {
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store, max-age=0");
  headers.set(headerName("requestId", family), randomBase32(random, 120));
  for (const [name, value] of corsEntries) headers.set(name, value);
}
