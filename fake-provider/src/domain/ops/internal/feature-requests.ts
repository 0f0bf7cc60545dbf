import type { CreateFeatureRequestBody } from "@authsim/sdk/contract";
import type { OpContext } from "../context.ts";
import type { FeatureRequestRecord } from "../../store/service-records.ts";
import type { UserRecord } from "../../store/records.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * The dashboard's feature-request board. Upstream forwards each call to an outside board service (Featurebase) with
 * its own key; the emulator keeps the board as data in featureRequests, with that service's visible rules:
 * - the board knows a user by the real service's user id, and by their primary email (or a stand-in address when they
 *   have none), with the display name as author name (a fixed one when unset);
 * - a listing is the 50 most upvoted posts, then without those merged into another or completed;
 * - an upvote toggles the caller's vote.
 * The routes' caller rules (a user of the internal project) are their schema's: routes check them first.
 */

/** How many posts one listing asks the board for. */
const PAGE = 50;

/** What the board shows a user as: their primary email, or an address made from their id. */
const boardEmail = (user: UserRecord) => user.primaryEmail ?? `${user.id}@featurebase-user.stack-auth-app.com`;

/** The post's fields the board fills in when a request leaves them out. */
const DEFAULTS = {
  category: "feature-requests",
  tags: ["feature_request", "dashboard"],
  commentsAllowed: true,
  authorName: "Stack Auth User",
};

export function listFeatureRequests(ctx: OpContext, user: UserRecord) {
  const top = [...ctx.tables.featureRequests.values()]
    .sort(
      (a, b) =>
        b.upvoterIds.length - a.upvoterIds.length || a.createdAtMillis - b.createdAtMillis || (a.id < b.id ? -1 : 1),
    )
    .slice(0, PAGE);
  const posts = top
    .filter((post) => post.mergedToId === null && post.status?.type !== "completed")
    .map((post) => ({
      id: post.id,
      title: post.title,
      content: post.content,
      upvotes: post.upvoterIds.length,
      date: new Date(post.createdAtMillis).toISOString(),
      postStatus: post.status,
      userHasUpvoted: post.upvoterIds.includes(user.id),
    }));
  return { posts };
}

/** A post's id, in the board's format (24 hex digits). */
function postId(ctx: OpContext): string {
  return Array.from(ctx.random.bytes(12), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function createFeatureRequest(
  ctx: OpContext,
  user: UserRecord,
  body: CreateFeatureRequestBody,
): { success: true; id: string } {
  const record: FeatureRequestRecord = {
    id: postId(ctx),
    title: body.title,
    content: body.content ?? "",
    category: body.category ?? DEFAULTS.category,
    tags: body.tags ?? DEFAULTS.tags,
    commentsAllowed: body.commentsAllowed ?? DEFAULTS.commentsAllowed,
    // The board's own fields (where the post came from, who posted it) first; the request's may override them.
    customInputValues: {
      source: "dashboard_companion",
      userId: user.id,
      projectId: "stack-auth",
      ...body.customInputValues,
    },
    authorEmail: boardEmail(user),
    authorName: user.displayName ?? DEFAULTS.authorName,
    upvoterIds: [],
    createdAtMillis: ctx.now,
    mergedToId: null,
    status: null,
  };
  ctx.tables.featureRequests.set(record.id, record);
  return { success: true, id: record.id };
}

/** Toggles the caller's upvote. A post the board does not have is a plain 404 (upstream: the board's error). */
export function upvoteFeatureRequest(
  ctx: OpContext,
  user: UserRecord,
  id: string,
): { success: true; upvoted: boolean } {
  const post = ctx.tables.featureRequests.get(id);
  if (!post) throw refusal("featureRequestNotFound");
  const upvoted = !post.upvoterIds.includes(user.id);
  const upvoterIds = upvoted ? [...post.upvoterIds, user.id] : post.upvoterIds.filter((voter) => voter !== user.id);
  ctx.tables.featureRequests.set(id, { ...post, upvoterIds });
  return { success: true, upvoted };
}
