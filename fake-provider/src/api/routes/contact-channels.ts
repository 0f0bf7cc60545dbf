import {
  createChannel,
  deleteChannel,
  listChannels,
  requireChannel,
  sendChannelVerification,
  sendPrimaryVerification,
  updateChannel,
  verifyChannel,
} from "../../domain/ops/users/contact-channels.ts";
import { contactChannelView } from "../../domain/views/contact-channels.ts";
import { created, ok, success, type RouteTable } from "./define.ts";
import { targetUser } from "../../domain/ops/access.ts";
import { userBySchema } from "./user-by-schema.ts";
import { refusal } from "../../domain/errors/refusals.ts";
import { knownError } from "../../domain/errors/known-error.ts";
import type { Auth } from "../../domain/auth/caller.ts";
import type { OpContext } from "../../domain/ops/context.ts";
import type { UserRecord } from "../../domain/store/records.ts";

/** Contact channels and email verification (protocol.md §5.6, §6.3, §7.3). */
const WHAT = "contact channels";

function missingUser(userId: string): never {
  throw knownError("USER_ID_DOES_NOT_EXIST", { user_id: userId });
}

/**
 * The channels' user for reading and writing channels. The real handlers look channels up by user id alone, so for a
 * server an unknown user is no user (null): no channels, and any channel of theirs "not found".
 */
function channelsUser(
  auth: Auth,
  ctx: OpContext,
  userId: string,
  verb: "list" | "read" | "update" | "delete",
): UserRecord | null {
  if (auth.type === "client" || userId === "me")
    return targetUser(auth, ctx, userId, WHAT, () => refusal("clientOwnContactChannelsOnly", verb));
  const user = ctx.tables.users.get(userId);
  return user && user.projectId === auth.project.id ? user : null;
}

export const contactChannelRoutes: RouteTable = {
  listContactChannels: {
    handler: ({ auth, ctx, query }) => {
      const user = channelsUser(auth, ctx, query.user_id, "list");
      return ok({ items: user ? listChannels(ctx, user.id).map(contactChannelView) : [], is_paginated: false });
    },
  },
  createContactChannel: {
    handler: ({ auth, ctx, body }) => {
      const { user_id, ...fields } = body;
      const user = targetUser(auth, ctx, user_id, WHAT, () => refusal("clientOwnContactChannelsOnly", "create"));
      return created(contactChannelView(createChannel(ctx, user, fields)));
    },
  },
  getContactChannel: {
    handler: ({ auth, ctx, params }) => {
      const user = channelsUser(auth, ctx, params.user_id, "read");
      if (!user) throw refusal("contactChannelNotFound");
      return ok(contactChannelView(requireChannel(ctx, user, params.channel_id)));
    },
  },
  updateContactChannel: {
    handler: ({ auth, ctx, params, body }) => {
      const user = channelsUser(auth, ctx, params.user_id, "update");
      if (!user) throw refusal("contactChannelNotFoundToWrite");
      return ok(
        contactChannelView(updateChannel(ctx, user, requireChannel(ctx, user, params.channel_id, "write"), body)),
      );
    },
  },
  deleteContactChannel: {
    handler: ({ auth, ctx, params }) => {
      const user = channelsUser(auth, ctx, params.user_id, "delete");
      if (!user) throw refusal("contactChannelNotFoundToWrite");
      deleteChannel(ctx, user, requireChannel(ctx, user, params.channel_id, "write"));
      return success();
    },
  },
  sendContactChannelVerificationCode: {
    handler: ({ auth, ctx, params, body }) => {
      // The real handler's own answers: a client asking for another user is a 400, an unknown user id of a server's
      // USER_ID_DOES_NOT_EXIST.
      const other = () => refusal("ownUserVerificationCodeOnly");
      const user =
        auth.type === "client" || params.user_id === "me"
          ? targetUser(auth, ctx, params.user_id, WHAT, other)
          : (ctx.tables.users.get(params.user_id) ?? missingUser(params.user_id));
      if (user.projectId !== auth.project.id) missingUser(params.user_id);
      sendChannelVerification(
        ctx,
        auth.project,
        user,
        requireChannel(ctx, user, params.channel_id, "verify"),
        body.callback_url,
      );
      return success();
    },
  },
  sendVerificationCodeLegacy: {
    handler: ({ auth, ctx, body, request }) => {
      sendPrimaryVerification(ctx, auth.project, userBySchema(auth, request), body.email, body.callback_url);
      return success();
    },
  },
  verifyContactChannel: {
    handler: ({ auth, ctx, body }) => {
      verifyChannel(ctx, auth.project.id, body.code, { consume: true });
      return success();
    },
  },
  checkContactChannelCode: {
    handler: ({ auth, ctx, body }) => {
      verifyChannel(ctx, auth.project.id, body.code, { consume: false });
      return ok({ is_code_valid: true });
    },
  },
};
