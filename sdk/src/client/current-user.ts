import type { ClientUserJson } from "../contract/areas/users.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { authMethods, type Auth } from "./auth-methods.ts";
import { baseUserFromJson, userUpdateToWire, type BaseUser, type UserUpdateOptions } from "./user-fields.ts";

/** The signed-in user of a client app (sdk-surface.md §9a/§9b): a snapshot plus methods bound to its session. */
export interface CurrentUser extends BaseUser, Auth {
  update(options: UserUpdateOptions): Promise<void>;
  setDisplayName(displayName: string | null): Promise<void>;
  setClientMetadata(metadata: unknown): Promise<void>;
  /** DELETE /users/me, then the session is marked invalid (spec §4). */
  delete(): Promise<void>;
}

export function currentUserFromJson(ctx: AppContext, session: Session, json: ClientUserJson): CurrentUser {
  const me = { session, allowAnonymousUser: true } as const;
  const update = async (options: UserUpdateOptions): Promise<void> => {
    await ctx.transport.request("/users/me", { ...me, method: "PATCH", body: userUpdateToWire(options) });
  };
  return {
    ...baseUserFromJson(json),
    ...authMethods(ctx, session),
    update,
    setDisplayName: (displayName) => update({ displayName }),
    setClientMetadata: (clientMetadata) => update({ clientMetadata }),
    async delete() {
      await ctx.transport.request("/users/me", { ...me, method: "DELETE" });
      session.markInvalid();
    },
  };
}
