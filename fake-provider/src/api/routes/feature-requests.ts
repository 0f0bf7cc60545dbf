import {
  createFeatureRequest,
  listFeatureRequests,
  upvoteFeatureRequest,
} from "../../domain/ops/internal/feature-requests.ts";
import { signedInBySchema } from "../../domain/ops/caller-schema.ts";
import { ok, type RouteTable } from "./define.ts";
import { where } from "./user-by-schema.ts";

/** The feature-request board (domain/ops/internal/feature-requests.ts): a user of the internal project, by the schema. */
export const featureRequestRoutes: RouteTable = {
  listFeatureRequests: {
    handler: ({ auth, ctx, request }) => ok(listFeatureRequests(ctx, signedInBySchema(auth, where(request), true))),
  },
  createFeatureRequest: {
    handler: ({ auth, ctx, body, request }) =>
      ok(createFeatureRequest(ctx, signedInBySchema(auth, where(request), true), body)),
  },
  upvoteFeatureRequest: {
    handler: ({ auth, ctx, params, request }) =>
      ok(upvoteFeatureRequest(ctx, signedInBySchema(auth, where(request), true), params.featureRequestId)),
  },
};
