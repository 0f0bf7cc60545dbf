import {
  clientContactChannelCreate,
  clientContactChannelUpdate,
  contactChannelListQuery,
  contactChannelParams,
  sendChannelVerificationBody,
  sendPrimaryVerificationBody,
  serverContactChannelCreate,
  serverContactChannelUpdate,
  verificationCodeBody,
} from "@authsim/sdk/contract";
import {
  createChannel,
  deleteChannel,
  listChannels,
  requireChannel,
  sendChannelVerification,
  sendPrimaryVerification,
  updateChannel,
  verifyChannel,
} from "../../domain/ops/contact-channels.ts";
import { contactChannelView } from "../../domain/views/contact-channels.ts";
import { created, noBody, ok, route, success, type AnyRouteSpec } from "./define.ts";
import { targetUser, userBySchema } from "./target-user.ts";

/** Contact channels and email verification (protocol.md §5.6, §6.3, §7.3). */
const WHAT = "contact channels";

export const contactChannelRoutes: Record<string, AnyRouteSpec> = {
  listContactChannels: route({
    query: contactChannelListQuery,
    handler: ({ auth, ctx, query }) => {
      const user = targetUser(auth!, ctx, query.user_id, WHAT, "Client can only list contact channels for their own user.");
      return ok({ items: listChannels(ctx, user.id).map(contactChannelView), is_paginated: false });
    },
  }),
  createContactChannel: route({
    body: (auth) => (auth?.type === "client" ? clientContactChannelCreate : serverContactChannelCreate),
    handler: ({ auth, ctx, body }) => {
      const { user_id, ...fields } = body;
      const user = targetUser(auth!, ctx, user_id, WHAT, "Client can only create contact channels for their own user.");
      return created(contactChannelView(createChannel(ctx, user, fields)));
    },
  }),
  getContactChannel: route({
    params: contactChannelParams,
    handler: ({ auth, ctx, params }) => {
      const user = targetUser(auth!, ctx, params.user_id, WHAT, "Client can only read contact channels for their own user.");
      return ok(contactChannelView(requireChannel(ctx, user, params.channel_id)));
    },
  }),
  updateContactChannel: route({
    params: contactChannelParams,
    body: (auth) => (auth?.type === "client" ? clientContactChannelUpdate : serverContactChannelUpdate),
    handler: ({ auth, ctx, params, body }) => {
      const user = targetUser(auth!, ctx, params.user_id, WHAT, "Client can only update contact channels for their own user.");
      return ok(contactChannelView(updateChannel(ctx, user, requireChannel(ctx, user, params.channel_id, "write"), body)));
    },
  }),
  deleteContactChannel: route({
    params: contactChannelParams,
    body: noBody,
    handler: ({ auth, ctx, params }) => {
      const user = targetUser(auth!, ctx, params.user_id, WHAT, "Client can only delete contact channels for their own user.");
      deleteChannel(ctx, user, requireChannel(ctx, user, params.channel_id, "write"));
      return success();
    },
  }),
  sendContactChannelVerificationCode: route({
    params: contactChannelParams,
    body: sendChannelVerificationBody,
    handler: ({ auth, ctx, params, body }) => {
      const user = targetUser(auth!, ctx, params.user_id, WHAT);
      sendChannelVerification(ctx, auth!.project, user, requireChannel(ctx, user, params.channel_id, "verify"), body.callback_url);
      return success();
    },
  }),
  sendVerificationCodeLegacy: route({
    body: sendPrimaryVerificationBody,
    handler: ({ auth, ctx, body, request }) => {
      sendPrimaryVerification(ctx, auth!.project, userBySchema(auth!, request), body.email, body.callback_url);
      return success();
    },
  }),
  verifyContactChannel: route({
    body: verificationCodeBody,
    handler: ({ auth, ctx, body }) => {
      verifyChannel(ctx, auth!.project.id, body.code, { consume: true });
      return success();
    },
  }),
  checkContactChannelCode: route({
    body: verificationCodeBody,
    handler: ({ auth, ctx, body }) => {
      verifyChannel(ctx, auth!.project.id, body.code, { consume: false });
      return ok({ is_code_valid: true });
    },
  }),
};
