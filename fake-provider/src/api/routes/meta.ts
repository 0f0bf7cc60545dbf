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
  checkFeatureSupport: {
    handler: ({ body }) =>
      text(
        // Only feature_name names the feature in the answer, as the real handler writes it (`name` is only logged there).
        `${body?.feature_name ?? "This feature"} is not yet supported. Please reach out to Stack support for more information.`,
      ),
  },
  // The dashboard's and CLI's version check (domain/ops/internal/check-version.ts); always 200, outdated or not. Its
  // module (and semver) loads with the first check: few sessions ever make one, and every start would parse it.
  checkVersion: {
    handler: async ({ body }) =>
      ok((await import("../../domain/ops/internal/check-version.ts")).checkVersion(body.clientVersion)),
  },
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
