import type { KnownErrorOf } from "../errors/known-error.ts";
import type { Session } from "../session/session.ts";
import type { CallAuth } from "../transport/operation-call.ts";
import type { AppContext } from "./app-context.ts";
import {
  createUserApiKey,
  listUserApiKeys,
  type ApiKeyCreationOptions,
  type UserApiKey,
  type UserApiKeyFirstView,
} from "./api-keys.ts";
import {
  createContactChannel,
  listContactChannels,
  type ContactChannel,
  type ContactChannelCreateOptions,
  type ServerContactChannel,
  type ServerContactChannelCreateOptions,
} from "./contact-channels.ts";
import { sendPrimaryVerificationEmail } from "./email-verification.ts";
import { listNotificationCategories, type NotificationCategory } from "./notification-categories.ts";
import { setPassword, updatePassword, type PasswordRequirementsError, type PasswordUpdateError } from "./password.ts";
import { getActiveSessions, revokeSession, type ActiveSession } from "./sessions.ts";

/**
 * The account members of a user object (sdk-surface.md §9b "UserExtra"): contact channels, notification categories,
 * sessions, API keys and, for the signed-in user, verification and passwords. Shared by the client's CurrentUser and
 * (with server access) the server's user objects, so the app classes only spread them in.
 */
export interface UserAccountMembers<
  Channel extends ContactChannel = ContactChannel,
  CreateOptions extends ContactChannelCreateOptions = ContactChannelCreateOptions,
> {
  listContactChannels(): Promise<Channel[]>;
  createContactChannel(options: CreateOptions): Promise<Channel>;
  listNotificationCategories(): Promise<NotificationCategory[]>;
  getActiveSessions(): Promise<ActiveSession[]>;
  /** Ends another session of the user; the current one refuses (CANNOT_DELETE_CURRENT_SESSION). */
  revokeSession(sessionId: string): Promise<void>;
  createApiKey(options: ApiKeyCreationOptions): Promise<UserApiKeyFirstView>;
  listApiKeys(): Promise<UserApiKey[]>;
}

/** The members that act as the signed-in user (they need its session). */
export interface SignedInAccountMembers {
  /** Needs a primary email (spec §5); EMAIL_ALREADY_VERIFIED is returned, not thrown. */
  sendVerificationEmail(options?: {
    callbackUrl?: string;
  }): Promise<KnownErrorOf<"EMAIL_ALREADY_VERIFIED"> | undefined>;
  updatePassword(options: { oldPassword: string; newPassword: string }): Promise<PasswordUpdateError | undefined>;
  setPassword(options: { password: string }): Promise<PasswordRequirementsError | undefined>;
}

/**
 * `auth` holds the session for a client; `userId` is "me" for a client, the user's id for server access. The channels
 * are typed for server access; a client's CurrentUser exposes them as plain ContactChannels.
 */
export function userAccountMembers(
  ctx: AppContext,
  auth: CallAuth,
  userId: string,
): UserAccountMembers<ServerContactChannel, ServerContactChannelCreateOptions> {
  const owner = { auth, userId };
  return {
    listContactChannels: () => listContactChannels(ctx, owner),
    createContactChannel: (options) => createContactChannel(ctx, owner, options),
    listNotificationCategories: () => listNotificationCategories(ctx, auth, userId),
    getActiveSessions: () => getActiveSessions(ctx, auth, userId),
    revokeSession: (sessionId) => revokeSession(ctx, auth, sessionId, userId === "me" ? "me" : null),
    createApiKey: (options) => createUserApiKey(ctx, auth, userId, options),
    listApiKeys: () => listUserApiKeys(ctx, auth, userId),
  };
}

export function signedInAccountMembers(
  ctx: AppContext,
  session: Session,
  primaryEmail: string | null,
): SignedInAccountMembers {
  return {
    sendVerificationEmail: (options) => sendPrimaryVerificationEmail(ctx, session, primaryEmail, options),
    updatePassword: (options) => updatePassword(ctx, session, options),
    setPassword: (options) => setPassword(ctx, session, options),
  };
}
