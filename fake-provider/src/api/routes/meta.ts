import { checkVersion } from "../../domain/ops/internal/check-version.ts";
import { projectJwks } from "../../domain/ops/projects/project-jwks.ts";
import { json, text } from "../http/respond.ts";
import { ok, type RouteTable } from "./define.ts";

/** Root, discovery and telemetry endpoints (protocol.md §6.1, §6.5). */
export const metaRoutes: RouteTable = {
  root: {
    handler: ({ auth }) => {
      if (!auth)
        return text(
          "Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.\n\nAuthentication: None",
        );
      const type = auth.type[0]!.toUpperCase() + auth.type.slice(1);
      const who = auth.user ? (auth.user.primaryEmail ?? auth.user.id) : "None";
      return text(
        `Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.\n\nAuthentication: ${type}\n  Project: ${auth.project.id}\n  User: ${who}`,
      );
    },
  },
  backendUrls: { handler: ({ ctx }) => ok({ urls: [ctx.settings.apiBaseUrl] }) },
  // Upstream names the feature by `feature_name` only; `name` is what it reports to its error tracker.
  checkFeatureSupport: {
    handler: ({ body }) =>
      text(
        `${body?.feature_name ?? "This feature"} is not yet supported. Please reach out to Stack support for more information.`,
      ),
  },
  // The dashboard's and CLI's version check (domain/ops/internal/check-version.ts); always 200, outdated or not.
  checkVersion: { handler: ({ body }) => ok(checkVersion(body.clientVersion)) },
  jwks: {
    handler: async ({ params, query, ctx }) => {
      const body = await projectJwks(ctx, params.project_id, {
        includeRestricted: query.include_restricted ?? false,
        includeAnonymous: query.include_anonymous ?? false,
      });
      return json(body, 200, { "cache-control": "public, max-age=3600" });
    },
  },
};
