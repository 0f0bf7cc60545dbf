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

/** Contact channels and email verification (protocol.md §5.6, §6.3, §7.3). */
const WHAT = "contact channels";

function missingUser(userId: string): never {
  throw knownError("USER_ID_DOES_NOT_EXIST", { user_id: userId });
}

export const contactChannelRoutes: RouteTable = {
  listContactChannels: {
    handler: ({ auth, ctx, query }) => {
      const user = targetUser(auth, ctx, query.user_id, WHAT, () => refusal("clientOwnContactChannelsOnly", "list"));
      return ok({ items: listChannels(ctx, user.id).map(contactChannelView), is_paginated: false });
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
      const user = targetUser(auth, ctx, params.user_id, WHAT, () => refusal("clientOwnContactChannelsOnly", "read"));
      return ok(contactChannelView(requireChannel(ctx, user, params.channel_id)));
    },
  },
  updateContactChannel: {
    handler: ({ auth, ctx, params, body }) => {
      const user = targetUser(auth, ctx, params.user_id, WHAT, () => refusal("clientOwnContactChannelsOnly", "update"));
      return ok(
        contactChannelView(updateChannel(ctx, user, requireChannel(ctx, user, params.channel_id, "write"), body)),
      );
    },
  },
  deleteContactChannel: {
    handler: ({ auth, ctx, params }) => {
      const user = targetUser(auth, ctx, params.user_id, WHAT, () => refusal("clientOwnContactChannelsOnly", "delete"));
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
