import type { ApiKeyType, OperationId } from "@authsim/sdk/contract";
import { knownError } from "../../domain/errors/known-error.ts";
import {
  assertClientMayUseApiKeys,
  checkApiKey,
  createApiKey,
  listApiKeys,
  requireApiKey,
  teamOwner,
  updateApiKey,
  userKeyOwner,
} from "../../domain/ops/projects/api-keys.ts";
import { apiKeyFirstView, apiKeyView } from "../../domain/views/api-keys.ts";
import { revokeLeakedApiKey } from "../../domain/ops/projects/credential-scanning.ts";
import { ok, type RouteFor, type RouteTable } from "./define.ts";

/** /user-api-keys and /team-api-keys (protocol.md §5.8, §6.3). */

/** A list without its owner: upstream's SCHEMA_ERROR with its own one-line message. */
function ownerMissing(type: ApiKeyType): never {
  const message = `${type}_id is required for ${type} API keys`;
  throw knownError("SCHEMA_ERROR", { message });
}

/** A key view of the type the op was asked for: the ops find or make keys of that type only (owner, id and type). */
function ofType<T extends ApiKeyType, View extends { type: ApiKeyType }>(
  _type: T,
  view: View,
): Extract<View, { type: T }> {
  return view as Extract<View, { type: T }>;
}

interface ItemRoutes<Get extends OperationId, Update extends OperationId, Check extends OperationId> {
  get: RouteFor<Get>;
  update: RouteFor<Update>;
  check: RouteFor<Check>;
}

function itemRoutes(type: "user"): ItemRoutes<"getUserApiKey", "updateUserApiKey", "checkUserApiKey">;
function itemRoutes(type: "team"): ItemRoutes<"getTeamApiKey", "updateTeamApiKey", "checkTeamApiKey">;
function itemRoutes<T extends ApiKeyType>(
  type: T,
): ItemRoutes<
  "getUserApiKey" | "getTeamApiKey",
  "updateUserApiKey" | "updateTeamApiKey",
  "checkUserApiKey" | "checkTeamApiKey"
> {
  return {
    get: {
      handler: ({ auth, ctx, params }) => {
        assertClientMayUseApiKeys(auth, type);
        return ok(ofType(type, apiKeyView(requireApiKey(ctx, auth, type, params.api_key_id))));
      },
    },
    update: {
      handler: ({ auth, ctx, params, body }) => {
        assertClientMayUseApiKeys(auth, type);
        return ok(ofType(type, apiKeyView(updateApiKey(ctx, requireApiKey(ctx, auth, type, params.api_key_id), body))));
      },
    },
    // Server code checks a key a caller presented; upstream allows server and admin access only.
    check: {
      access: ["server", "admin"],
      handler: ({ auth, ctx, body }) =>
        ok(ofType(type, apiKeyView(checkApiKey(ctx, auth.project.id, type, body.api_key)))),
    },
  };
}

const user = itemRoutes("user");
const team = itemRoutes("team");

export const apiKeyRoutes: RouteTable = {
  revokeLeakedApiKey: { handler: ({ ctx, body }) => ok(revokeLeakedApiKey(ctx, body.api_key)) },
  listUserApiKeys: {
    handler: ({ auth, ctx, query }) => {
      assertClientMayUseApiKeys(auth, "user");
      const owner = userKeyOwner(auth, ctx, query.user_id ?? ownerMissing("user"));
      return ok({ items: listApiKeys(ctx, auth.project.id, owner).map(apiKeyView), is_paginated: false });
    },
  },
  // Upstream answers create with 200, not 201 (a custom route, not a CRUD create).
  createUserApiKey: {
    handler: ({ auth, ctx, body }) => {
      assertClientMayUseApiKeys(auth, "user");
      return ok(
        ofType(
          "user",
          apiKeyFirstView(createApiKey(ctx, auth.project.id, userKeyOwner(auth, ctx, body.user_id), body)),
        ),
      );
    },
  },
  getUserApiKey: user.get,
  updateUserApiKey: user.update,
  checkUserApiKey: user.check,
  listTeamApiKeys: {
    handler: ({ auth, ctx, query }) => {
      assertClientMayUseApiKeys(auth, "team");
      const owner = teamOwner(ctx, auth, query.team_id ?? ownerMissing("team"));
      return ok({ items: listApiKeys(ctx, auth.project.id, owner).map(apiKeyView), is_paginated: false });
    },
  },
  createTeamApiKey: {
    handler: ({ auth, ctx, body }) => {
      assertClientMayUseApiKeys(auth, "team");
      return ok(
        ofType("team", apiKeyFirstView(createApiKey(ctx, auth.project.id, teamOwner(ctx, auth, body.team_id), body))),
      );
    },
  },
  getTeamApiKey: team.get,
  updateTeamApiKey: team.update,
  checkTeamApiKey: team.check,
};
