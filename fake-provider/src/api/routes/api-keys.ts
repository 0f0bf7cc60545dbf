import {
  apiKeyCheckBody,
  apiKeyParams,
  apiKeyUpdate,
  teamApiKeyCreate,
  teamApiKeyItemQuery,
  teamApiKeyListQuery,
  userApiKeyCreate,
  userApiKeyItemQuery,
  userApiKeyListQuery,
  type ApiKeyType,
} from "@authsim/sdk/contract";
import type { Auth } from "../auth/parse-auth.ts";
import { knownError, StatusError } from "../../domain/errors/known-error.ts";
import {
  assertClientMayUseApiKeys,
  checkApiKey,
  createApiKey,
  listApiKeys,
  requireApiKey,
  teamOwner,
  updateApiKey,
  userOwner,
} from "../../domain/ops/api-keys.ts";
import type { OpContext } from "../../domain/ops/context.ts";
import { apiKeyFirstView, apiKeyView } from "../../domain/views/api-keys.ts";
import { ok, route, type AnyRouteSpec } from "./define.ts";
import { targetUser } from "./target-user.ts";

/** /user-api-keys and /team-api-keys (protocol.md §5.8, §6.3). */

/** A list without its owner: upstream's SCHEMA_ERROR with its own one-line message. */
function ownerMissing(type: ApiKeyType): never {
  const message = `${type}_id is required for ${type} API keys`;
  throw knownError("SCHEMA_ERROR", { message });
}

function userOf(auth: Auth, ctx: OpContext, userIdOrMe: string) {
  // Upstream's own plain 403 for a client naming another user's keys.
  if (auth.type === "client" && auth.user && userIdOrMe !== "me" && userIdOrMe !== auth.user.id) throw new StatusError(403, "Client can only manage their own api keys");
  return userOwner(targetUser(auth, ctx, userIdOrMe, "API keys"));
}

function itemRoutes(type: ApiKeyType) {
  return {
    get: route({
      params: apiKeyParams,
      query: type === "user" ? userApiKeyItemQuery : teamApiKeyItemQuery,
      handler: ({ auth, ctx, params }) => {
        assertClientMayUseApiKeys(auth!, type);
        return ok(apiKeyView(requireApiKey(ctx, auth!, type, params.api_key_id)));
      },
    }),
    update: route({
      params: apiKeyParams,
      query: type === "user" ? userApiKeyItemQuery : teamApiKeyItemQuery,
      body: apiKeyUpdate,
      handler: ({ auth, ctx, params, body }) => {
        assertClientMayUseApiKeys(auth!, type);
        return ok(apiKeyView(updateApiKey(ctx, requireApiKey(ctx, auth!, type, params.api_key_id), body)));
      },
    }),
    // Server code checks a key a caller presented; upstream allows server and admin access only.
    check: route({
      access: ["server", "admin"],
      body: apiKeyCheckBody,
      handler: ({ auth, ctx, body }) => ok(apiKeyView(checkApiKey(ctx, auth!.project.id, type, body.api_key))),
    }),
  };
}

const user = itemRoutes("user");
const team = itemRoutes("team");

export const apiKeyRoutes: Record<string, AnyRouteSpec> = {
  listUserApiKeys: route({
    query: userApiKeyListQuery,
    handler: ({ auth, ctx, query }) => {
      assertClientMayUseApiKeys(auth!, "user");
      const owner = userOf(auth!, ctx, query.user_id ?? ownerMissing("user"));
      return ok({ items: listApiKeys(ctx, auth!.project.id, owner).map(apiKeyView), is_paginated: false });
    },
  }),
  // Upstream answers create with 200, not 201 (a custom route, not a CRUD create).
  createUserApiKey: route({
    body: userApiKeyCreate,
    handler: ({ auth, ctx, body }) => {
      assertClientMayUseApiKeys(auth!, "user");
      return ok(apiKeyFirstView(createApiKey(ctx, auth!.project.id, userOf(auth!, ctx, body.user_id), body)));
    },
  }),
  getUserApiKey: user.get,
  updateUserApiKey: user.update,
  checkUserApiKey: user.check,
  listTeamApiKeys: route({
    query: teamApiKeyListQuery,
    handler: ({ auth, ctx, query }) => {
      assertClientMayUseApiKeys(auth!, "team");
      const owner = teamOwner(ctx, auth!, query.team_id ?? ownerMissing("team"));
      return ok({ items: listApiKeys(ctx, auth!.project.id, owner).map(apiKeyView), is_paginated: false });
    },
  }),
  createTeamApiKey: route({
    body: teamApiKeyCreate,
    handler: ({ auth, ctx, body }) => {
      assertClientMayUseApiKeys(auth!, "team");
      return ok(apiKeyFirstView(createApiKey(ctx, auth!.project.id, teamOwner(ctx, auth!, body.team_id), body)));
    },
  }),
  getTeamApiKey: team.get,
  updateTeamApiKey: team.update,
  checkTeamApiKey: team.check,
};
