import { z } from "zod";
import { checkVersionBody, queryBoolean } from "@authsim/sdk/contract";
import { jwks } from "../../domain/auth/tokens.ts";
import { checkVersion } from "../../domain/ops/check-version.ts";
import { json, text } from "../http/respond.ts";
import { ok, route, type AnyRouteSpec } from "./define.ts";

/** Root, discovery and telemetry endpoints (protocol.md §6.1, §6.5). */
export const metaRoutes: Record<string, AnyRouteSpec> = {
  root: route({
    handler: ({ auth }) => {
      if (!auth) return text("Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.\n\nAuthentication: None");
      const type = auth.type[0]!.toUpperCase() + auth.type.slice(1);
      const who = auth.user ? (auth.user.primaryEmail ?? auth.user.id) : "None";
      return text(`Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.\n\nAuthentication: ${type}\n  Project: ${auth.project.id}\n  User: ${who}`);
    },
  }),
  backendUrls: route({ handler: ({ ctx }) => ok({ urls: [ctx.settings.apiBaseUrl] }) }),
  checkFeatureSupport: route({
    body: z.looseObject({ feature_name: z.string().optional(), name: z.string().optional() }).optional(),
    handler: ({ body }) => text(`${body?.feature_name ?? body?.name ?? "This feature"} is not yet supported. Please reach out to Stack support for more information.`),
  }),
  // The dashboard's and CLI's version check (domain/ops/check-version.ts); always 200, outdated or not.
  checkVersion: route({ body: checkVersionBody, handler: ({ body }) => ok(checkVersion(body.clientVersion)) }),
  jwks: route({
    params: z.object({ project_id: z.string() }),
    query: z.strictObject({ include_restricted: queryBoolean.optional(), include_anonymous: queryBoolean.optional() }),
    handler: async ({ params, query, ctx }) => {
      if (!ctx.tables.projects.has(params.project_id)) return text("Project not found", 404);
      const body = await jwks(ctx.tables, ctx.random, {
        includeRestricted: query.include_restricted ?? false,
        includeAnonymous: query.include_anonymous ?? false,
      });
      return json(body, 200, { "cache-control": "public, max-age=3600" });
    },
  }),
};
