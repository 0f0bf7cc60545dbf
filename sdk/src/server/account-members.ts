import { userAccountMembers, type UserAccountMembers } from "../client/account-members.ts";
import type { AppContext } from "../client/app-context.ts";
import type { ServerContactChannel, ServerContactChannelCreateOptions } from "../client/contact-channels.ts";
import type { PasswordRequirementsError } from "../client/password.ts";
import { catchKnown } from "../errors/result.ts";
import { asServer } from "../transport/operation-call.ts";
import { caughtErrors } from "../client/caught-errors.ts";

/**
 * The account members of a server user object (sdk-surface.md §9b with server variants): the client's, addressed by
 * user id with server access, and a password set through the user update (the reference kit does the same).
 */
export interface ServerUserAccountMembers extends UserAccountMembers<
  ServerContactChannel,
  ServerContactChannelCreateOptions
> {
  setPassword(options: { password: string }): Promise<PasswordRequirementsError | undefined>;
}

export function serverUserAccountMembers(ctx: AppContext, userId: string): ServerUserAccountMembers {
  return {
    ...userAccountMembers(ctx, {}, userId),
    async setPassword(options) {
      const result = await catchKnown(async () => {
        await asServer.send(ctx.transport, "updateUser", {
          params: { user_id: userId },
          body: { password: options.password },
        });
      }, caughtErrors.updateUser);
      return result.status === "error" ? result.error : undefined;
    },
  };
}
