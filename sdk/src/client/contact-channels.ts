import {
  contactChannelType,
  type ContactChannelJson,
  type ServerContactChannelUpdate,
} from "../contract/areas/contact-channels.ts";
import { asClient, type CallAuth } from "../transport/operation-call.ts";
import type { AppContext } from "./app-context.ts";

/** Contact channels (spec §3; sdk-surface.md §13; protocol.md §5.6, §7.3). */

export interface ContactChannelCreateOptions {
  value: string;
  type: "email";
  usedForAuth: boolean;
  isPrimary?: boolean;
}
export interface ServerContactChannelCreateOptions extends ContactChannelCreateOptions {
  isVerified?: boolean;
}

export interface ContactChannelUpdateOptions {
  value?: string;
  usedForAuth?: boolean;
  isPrimary?: boolean;
}
export interface ServerContactChannelUpdateOptions extends ContactChannelUpdateOptions {
  isVerified?: boolean;
}

export interface ContactChannel {
  readonly id: string;
  readonly value: string;
  readonly type: ContactChannelJson["type"];
  readonly isPrimary: boolean;
  readonly isVerified: boolean;
  readonly usedForAuth: boolean;
  /** Emails a verification link; EMAIL_ALREADY_VERIFIED is thrown for a verified address. */
  sendVerificationEmail(options?: { callbackUrl?: string }): Promise<void>;
  update(options: ContactChannelUpdateOptions): Promise<void>;
  delete(): Promise<void>;
}
export interface ServerContactChannel extends ContactChannel {
  update(options: ServerContactChannelUpdateOptions): Promise<void>;
}

/** Who the channels belong to: "me" with the session for a client, a user id with server access. */
export interface ChannelOwner {
  auth: CallAuth;
  userId: string;
}

/** The email-verification handler made absolute (spec §2), unless the caller names the link's target. */
export function verificationCallback(ctx: AppContext, callbackUrl: string | undefined): string {
  const url = callbackUrl ?? ctx.redirector.absolute(ctx.urls.emailVerification);
  if (!url)
    throw new Error(
      "Pass callbackUrl: the emailVerification handler URL is relative and there is no page origin to resolve it against.",
    );
  return url;
}

function updateToWire(o: ServerContactChannelUpdateOptions): ServerContactChannelUpdate {
  return { value: o.value, used_for_auth: o.usedForAuth, is_primary: o.isPrimary, is_verified: o.isVerified };
}

export function contactChannelFromJson(
  ctx: AppContext,
  owner: ChannelOwner,
  json: ContactChannelJson,
): ServerContactChannel {
  const params = { user_id: owner.userId, channel_id: json.id };
  return {
    id: json.id,
    value: json.value,
    type: json.type,
    isPrimary: json.is_primary,
    isVerified: json.is_verified,
    usedForAuth: json.used_for_auth,
    async sendVerificationEmail(options = {}) {
      const body = { callback_url: verificationCallback(ctx, options.callbackUrl) };
      await asClient.send(ctx.transport, "sendContactChannelVerificationCode", { ...owner.auth, params, body });
    },
    async update(options) {
      await asClient.send(ctx.transport, "updateContactChannel", {
        ...owner.auth,
        params,
        body: updateToWire(options),
      });
    },
    async delete() {
      await asClient.send(ctx.transport, "deleteContactChannel", { ...owner.auth, params });
    },
  };
}

export async function listContactChannels(ctx: AppContext, owner: ChannelOwner): Promise<ServerContactChannel[]> {
  const page = await asClient.json(ctx.transport, "listContactChannels", {
    ...owner.auth,
    query: { user_id: owner.userId },
  });
  return page.items.map((json) => contactChannelFromJson(ctx, owner, json));
}

export async function createContactChannel(
  ctx: AppContext,
  owner: ChannelOwner,
  options: ServerContactChannelCreateOptions,
): Promise<ServerContactChannel> {
  const body = {
    user_id: owner.userId,
    value: options.value,
    type: contactChannelType.parse(options.type),
    used_for_auth: options.usedForAuth,
    is_primary: options.isPrimary,
    is_verified: options.isVerified,
  };
  const json = await asClient.json(ctx.transport, "createContactChannel", { ...owner.auth, body });
  return contactChannelFromJson(ctx, owner, json);
}
