import {
  createInternalApiKey,
  listInternalApiKeys,
  requireInternalApiKey,
  updateInternalApiKey,
} from "../../domain/ops/projects/internal-api-keys.ts";
import { internalApiKeyFirstView, internalApiKeyView } from "../../domain/views/internal-api-keys.ts";
import { ok, type RouteTable } from "./define.ts";

/** /internal/api-keys, admin only (protocol.md §5.8, §6.5). */
export const internalApiKeyRoutes: RouteTable = {
  listInternalApiKeys: {
    handler: ({ auth, ctx }) =>
      ok({ items: listInternalApiKeys(ctx, auth.project.id).map(internalApiKeyView), is_paginated: false }),
  },
  // The one answer that carries the full key strings (200, as upstream's custom create route answers).
  createInternalApiKey: {
    handler: ({ auth, ctx, body }) => ok(internalApiKeyFirstView(createInternalApiKey(ctx, auth.project.id, body))),
  },
  getInternalApiKey: {
    handler: ({ auth, ctx, params }) =>
      ok(internalApiKeyView(requireInternalApiKey(ctx, auth.project.id, params.api_key_id))),
  },
  updateInternalApiKey: {
    handler: ({ auth, ctx, params, body }) =>
      ok(
        internalApiKeyView(
          updateInternalApiKey(ctx, requireInternalApiKey(ctx, auth.project.id, params.api_key_id), body),
        ),
      ),
  },
};
