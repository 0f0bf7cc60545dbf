import { z } from "zod";
import { defineOperations, json } from "../define-operations.ts";

/**
 * The dashboard's feature-request board (upstream: an outside board service, Featurebase, reached with the real
 * service's key): a user of the internal project lists, posts and upvotes requests. ops/internal/feature-requests.ts keeps the
 * board as data.
 */

export const featureRequestPost = z.looseObject({
  id: z.string(),
  title: z.string(),
  content: z.string().nullable(),
  upvotes: z.number(),
  date: z.string(),
  postStatus: z.looseObject({ name: z.string(), color: z.string() }).nullable(),
  userHasUpvoted: z.boolean(),
});
export const listFeatureRequestsResponse = z.object({ posts: z.array(featureRequestPost) });

export const createFeatureRequestBody = z.strictObject({
  title: z.string(),
  content: z.string().optional(),
  category: z.string().optional(),
  tags: z.array(z.string()).optional(),
  commentsAllowed: z.boolean().optional(),
  customInputValues: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type CreateFeatureRequestBody = z.infer<typeof createFeatureRequestBody>;
export const createFeatureRequestResponse = z.object({ success: z.boolean(), id: z.string().optional() });

export const featureRequestParams = z.object({ featureRequestId: z.string() });
export const upvoteFeatureRequestBody = z.strictObject({}).optional();
export const upvoteFeatureRequestResponse = z.object({ success: z.boolean(), upvoted: z.boolean().optional() });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const featureRequestsOperations = defineOperations("feature-requests", {
  listFeatureRequests: {
    method: "GET",
    path: "/internal/feature-requests",
    access: "client",
    errors: ["SCHEMA_ERROR"],
    responses: [json(listFeatureRequestsResponse)],
  },
  createFeatureRequest: {
    method: "POST",
    path: "/internal/feature-requests",
    access: "client",
    body: createFeatureRequestBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(createFeatureRequestResponse)],
  },
  upvoteFeatureRequest: {
    method: "POST",
    path: "/internal/feature-requests/:featureRequestId/upvote",
    access: "client",
    params: featureRequestParams,
    body: upvoteFeatureRequestBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(upvoteFeatureRequestResponse)],
  },
});
