import { Hono, type Context } from "hono";
import { z } from "zod";
import type { RandomSource } from "@authsim/sdk/runtime";
import { json } from "../http/respond.ts";
import { fetchUnderPrefix } from "../http/request-url.ts";
import { runOp, type OpDeps } from "../../domain/run-op.ts";
import type { OpContext } from "../../domain/ops/context.ts";
import {
  attemptsWhere,
  createEndpoint,
  createMessage,
  deleteEndpoint,
  endpointUrlProblem,
  endpointsOf,
  findApp,
  findEndpoint,
  newEndpointSecret,
  resendMessage,
} from "../../domain/ops/webhooks/webhooks.ts";
import type { SvixAppRecord } from "../../domain/store/webhook-records.ts";
import { svixAppView, svixAttemptView, svixEndpointView, svixMessageView } from "../../domain/views/webhooks.ts";

/**
 * The part of Svix's REST API (`/api/v1/...`) that the real service, its dashboard (svix-react) and its e2e helpers
 * use, over the emulator's webhook state (domain/ops/webhooks/webhooks.ts): the application, its endpoints and their secrets,
 * messages, attempts and resend. Served under the emulator's origin at SVIX_PREFIX (point a Svix client's serverUrl
 * there), and by the dev server on the real development port (`<prefix>13`) at the root.
 *
 * A caller authenticates with `Authorization: Bearer <token>`, a token from POST /webhooks/svix-token: it opens that
 * project's application only (another application is not found). JSON in Svix's shapes: camel case, lists as
 * `{data, iterator, prevIterator, done}`, errors as `{code, detail}` (422: `{detail: [{loc, msg, type}]}`).
 */
export const SVIX_PREFIX = "/__svix";

/**
 * CORS as a Svix server answers it: any origin, method and request header. The real dashboard calls this API from the
 * browser (svix-react, on its own origin) with headers of Svix's client (`svix-req-id`, `idempotency-key`); with no
 * answer to its preflight the endpoint list fails and the webhooks page falls to the dashboard's global error. Open to
 * any origin, it exposes nothing more: every call needs a token only the project's admin gets
 * (POST /webhooks/svix-token, whose admin key the request guard takes from this machine's pages only).
 */
function svixCors(request: Request): Record<string, string> {
  if (request.method !== "OPTIONS") return { "access-control-allow-origin": "*" };
  return {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
    "access-control-allow-headers":
      request.headers.get("access-control-request-headers") ?? "authorization, content-type",
    "access-control-max-age": "600",
  };
}

const svixError = (status: number, code: string, detail: string) => json({ code, detail }, status);
const notFound = () => svixError(404, "not_found", "Entity not found");
const invalid = (loc: (string | number)[], msg: string) => json({ detail: [{ loc, msg, type: "value_error" }] }, 422);

class SvixRefusal extends Error {
  constructor(readonly response: Response) {
    super("svix refusal");
  }
}

const endpointIn = z.object({
  url: z.string(),
  description: z.string().optional(),
  filterTypes: z.array(z.string()).min(1).nullable().optional(),
  channels: z.array(z.string()).min(1).nullable().optional(),
  disabled: z.boolean().optional(),
  secret: z
    .string()
    .regex(/^(whsec_)?[A-Za-z0-9+/=]{32,100}$/)
    .nullable()
    .optional(),
  uid: z.string().nullable().optional(),
  version: z.number().int().optional(),
  rateLimit: z.number().int().nullable().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});
const endpointPatch = endpointIn.partial();
const messageIn = z.object({
  eventType: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
  eventId: z.string().nullable().optional(),
  channels: z.array(z.string()).nullable().optional(),
});
const appIn = z.object({
  name: z.string(),
  uid: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});

async function bodyOf<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let raw: unknown;
  try {
    raw = JSON.parse(await c.req.raw.text());
  } catch {
    throw new SvixRefusal(invalid(["body"], "Invalid JSON"));
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SvixRefusal(
      invalid(["body", ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))], issue.message),
    );
  }
  return parsed.data;
}

/** The body as the schema reads it (and its `url` checked, for endpoints), or Svix's 422. */
async function read<S extends z.ZodType>(c: Context, schema: S, withUrl = false): Promise<z.output<S> | Response> {
  try {
    const body = await bodyOf(c, schema);
    const url = withUrl ? (body as { url?: string }).url : undefined;
    const problem = url === undefined ? null : endpointUrlProblem(url);
    if (problem) return invalid(["body", "url"], problem);
    return body;
  } catch (error) {
    if (error instanceof SvixRefusal) return error.response;
    throw error;
  }
}

/** A page of a list (newest first, as Svix lists), from `limit` and `iterator` (the last id of the page before). */
function page<T extends { id: string }>(c: Context, items: T[]) {
  const limit = Math.min(Math.max(Number(c.req.query("limit") ?? 50) || 50, 1), 250);
  const after = c.req.query("iterator");
  const start = after ? items.findIndex((i) => i.id === after) + 1 : 0;
  const data = items.slice(start, start + limit);
  const done = start + limit >= items.length;
  return { data, iterator: data.at(-1)?.id ?? null, prevIterator: null, done };
}

export function svixApi(deps: OpDeps & { random: RandomSource }): Hono {
  const api = new Hono();
  api.use("*", async (c, next) => {
    const cors = svixCors(c.req.raw);
    if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
    await next();
    for (const [name, value] of Object.entries(cors)) c.res.headers.set(name, value);
  });

  const grantOf = (c: Context) => {
    const token = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1];
    return token ? deps.store.read.svixTokens.get(token) : undefined;
  };
  const unauthenticated = () => svixError(401, "authentication_failed", "Invalid token");

  /** The token's application, if the path names it (by id or uid). */
  const withApp = async <R>(
    c: Context,
    work: (ctx: OpContext, app: SvixAppRecord) => R | Promise<R>,
  ): Promise<Response> => {
    const granted = grantOf(c);
    if (!granted) return unauthenticated();
    try {
      const result = await runOp(deps, async (ctx) => {
        const app = findApp(ctx, c.req.param("app_id") ?? "");
        if (!app || app.id !== granted.appId) throw new SvixRefusal(notFound());
        return work(ctx, app);
      });
      return result instanceof Response ? result : json(result);
    } catch (error) {
      if (error instanceof SvixRefusal) return error.response;
      throw error;
    }
  };
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new SvixRefusal(notFound());
    return value;
  };

  // The application: getOrCreate (POST /app?get_if_exists=true) and reads answer the token's own.
  api.post("/api/v1/app", async (c) => {
    const granted = grantOf(c);
    if (!granted) return unauthenticated();
    const app = deps.store.read.svixApps.get(granted.appId);
    const body = await read(c, appIn);
    if (body instanceof Response) return body;
    if (!app || (body.uid != null && body.uid !== app.uid))
      return svixError(403, "forbidden", "This token may only use its own application");
    return c.req.query("get_if_exists") === "true"
      ? json(svixAppView(app))
      : svixError(409, "conflict", "An application with this uid already exists");
  });
  api.get("/api/v1/app/:app_id", (c) => withApp(c, (_ctx, app) => svixAppView(app)));

  // Endpoints.
  api.get("/api/v1/app/:app_id/endpoint", (c) =>
    withApp(c, (ctx, app) => page(c, endpointsOf(ctx, app.id).reverse().map(svixEndpointView))),
  );
  api.post("/api/v1/app/:app_id/endpoint", async (c) => {
    const body = await read(c, endpointIn, true);
    if (body instanceof Response) return body;
    const response = await withApp(c, (ctx, app) =>
      svixEndpointView(createEndpoint(ctx, app, { ...body, secret: body.secret ?? undefined })),
    );
    return response.status === 200 ? new Response(response.body, { status: 201, headers: response.headers }) : response;
  });
  api.get("/api/v1/app/:app_id/endpoint/:endpoint_id", (c) =>
    withApp(c, (ctx, app) => svixEndpointView(need(findEndpoint(ctx, app, c.req.param("endpoint_id"))))),
  );
  const update = (partial: boolean) => async (c: Context) => {
    const body: z.output<typeof endpointPatch> | Response = await read(c, partial ? endpointPatch : endpointIn, true);
    if (body instanceof Response) return body;
    return withApp(c, (ctx, app) => {
      const endpoint = need(findEndpoint(ctx, app, c.req.param("endpoint_id") ?? ""));
      const fields = Object.fromEntries(Object.entries(body).filter(([k, v]) => v !== undefined && k !== "secret"));
      const next = { ...endpoint, ...fields, updatedAtMillis: ctx.now };
      ctx.tables.svixEndpoints.set(endpoint.id, next);
      return svixEndpointView(next);
    });
  };
  api.put("/api/v1/app/:app_id/endpoint/:endpoint_id", update(false));
  api.patch("/api/v1/app/:app_id/endpoint/:endpoint_id", update(true));
  api.delete("/api/v1/app/:app_id/endpoint/:endpoint_id", (c) =>
    withApp(c, (ctx, app) => {
      deleteEndpoint(ctx, need(findEndpoint(ctx, app, c.req.param("endpoint_id"))));
      return new Response(null, { status: 204 });
    }),
  );
  api.get("/api/v1/app/:app_id/endpoint/:endpoint_id/secret", (c) =>
    withApp(c, (ctx, app) => ({ key: need(findEndpoint(ctx, app, c.req.param("endpoint_id"))).secret })),
  );
  api.post("/api/v1/app/:app_id/endpoint/:endpoint_id/secret/rotate", (c) =>
    withApp(c, (ctx, app) => {
      const endpoint = need(findEndpoint(ctx, app, c.req.param("endpoint_id")));
      ctx.tables.svixEndpoints.set(endpoint.id, {
        ...endpoint,
        secret: newEndpointSecret(ctx.random),
        updatedAtMillis: ctx.now,
      });
      return new Response(null, { status: 204 });
    }),
  );

  // Messages.
  api.get("/api/v1/app/:app_id/msg", (c) =>
    withApp(c, (ctx, app) => {
      const withContent = c.req.query("with_content") !== "false";
      const messages = [...ctx.tables.svixMessages.values()].filter(
        (m) =>
          m.appId === app.id && (!c.req.query("event_types") || c.req.queries("event_types")!.includes(m.eventType)),
      );
      return page(
        c,
        messages.sort((a, b) => b.seq - a.seq).map((m) => svixMessageView(m, withContent)),
      );
    }),
  );
  api.post("/api/v1/app/:app_id/msg", async (c) => {
    const body = await read(c, messageIn);
    if (body instanceof Response) return body;
    const response = await withApp(c, (ctx, app) => svixMessageView(createMessage(ctx, app, body)));
    return response.status === 200 ? new Response(response.body, { status: 202, headers: response.headers }) : response;
  });
  const messageOf = (ctx: OpContext, app: SvixAppRecord, id: string) => {
    const message =
      ctx.tables.svixMessages.get(id) ??
      [...ctx.tables.svixMessages.values()].find((m) => m.appId === app.id && m.eventId === id);
    return need(message && message.appId === app.id ? message : undefined);
  };
  api.get("/api/v1/app/:app_id/msg/:msg_id", (c) =>
    withApp(c, (ctx, app) =>
      svixMessageView(messageOf(ctx, app, c.req.param("msg_id")), c.req.query("with_content") !== "false"),
    ),
  );
  api.post("/api/v1/app/:app_id/msg/:msg_id/endpoint/:endpoint_id/resend", (c) =>
    withApp(c, (ctx, app) => {
      resendMessage(
        ctx,
        messageOf(ctx, app, c.req.param("msg_id")),
        need(findEndpoint(ctx, app, c.req.param("endpoint_id"))),
      );
      return json({}, 202);
    }),
  );

  // Attempts: by endpoint, by message, one.
  const statusFilter = (c: Context) =>
    c.req.query("status") === undefined ? undefined : Number(c.req.query("status"));
  api.get("/api/v1/app/:app_id/attempt/endpoint/:endpoint_id", (c) =>
    withApp(c, (ctx, app) => {
      const endpoint = need(findEndpoint(ctx, app, c.req.param("endpoint_id")));
      const status = statusFilter(c);
      const withMsg = c.req.query("with_msg") === "true";
      const attempts = attemptsWhere(
        ctx,
        (a) => a.endpointId === endpoint.id && (status === undefined || a.status === status),
      );
      return page(
        c,
        attempts.map((a) => svixAttemptView(a, withMsg ? ctx.tables.svixMessages.get(a.msgId) : undefined)),
      );
    }),
  );
  api.get("/api/v1/app/:app_id/attempt/msg/:msg_id", (c) =>
    withApp(c, (ctx, app) => {
      const message = messageOf(ctx, app, c.req.param("msg_id"));
      const status = statusFilter(c);
      const endpointId = c.req.query("endpoint_id");
      const attempts = attemptsWhere(
        ctx,
        (a) =>
          a.msgId === message.id &&
          (status === undefined || a.status === status) &&
          (endpointId === undefined || a.endpointId === endpointId),
      );
      return page(
        c,
        attempts.map((a) => svixAttemptView(a)),
      );
    }),
  );
  api.get("/api/v1/app/:app_id/msg/:msg_id/attempt/:attempt_id", (c) =>
    withApp(c, (ctx, app) => {
      const attempt = ctx.tables.svixAttempts.get(c.req.param("attempt_id"));
      return svixAttemptView(
        need(
          attempt && attempt.appId === app.id && attempt.msgId === messageOf(ctx, app, c.req.param("msg_id")).id
            ? attempt
            : undefined,
        ),
      );
    }),
  );

  api.notFound(() => notFound());
  return api;
}

/**
 * What answers on Svix's own port (the dev server's `--svix-port`, `<prefix>13` as the real development setup numbers
 * it): the same API at the root, as a Svix server serves it, by way of the provider's app under SVIX_PREFIX.
 */
export const svixPortFetch = (
  appFetch: (request: Request) => Response | Promise<Response>,
): ((request: Request) => Response | Promise<Response>) => fetchUnderPrefix(SVIX_PREFIX, appFetch);
