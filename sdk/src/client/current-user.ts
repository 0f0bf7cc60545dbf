import type { ClientUserJson } from "../contract/areas/users.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { authMethods, type Auth } from "./auth-methods.ts";
import { baseUserFromJson, userUpdateToWire, type BaseUser, type UserUpdateOptions } from "./user-fields.ts";
import { userPermissionMethods, type UserPermissions } from "./permissions.ts";
import type { Team } from "./teams.ts";
import { clientUserTeams, type UserTeams } from "./user-teams.ts";
import {
  signedInAccountMembers,
  userAccountMembers,
  type SignedInAccountMembers,
  type UserAccountMembers,
} from "./account-members.ts";
import { clientCustomerMethods, type ClientCustomer } from "./items.ts";
import { internalUserExtra, type InternalUserExtra } from "./internal-user.ts";
import { signedInOAuthMembers, type SignedInOAuthMembers } from "./connected-accounts.ts";
import { asClient } from "../transport/operation-call.ts";

/** The signed-in user of a client app (sdk-surface.md §9a/§9b): a snapshot plus methods bound to its session. */
export interface CurrentUser
  extends
    BaseUser,
    Auth,
    UserTeams<Team>,
    UserPermissions,
    UserAccountMembers,
    SignedInAccountMembers,
    ClientCustomer,
    Partial<InternalUserExtra>,
    SignedInOAuthMembers {
  /** The selected team as a team object bound to this user's session (sdk-surface.md §9b). */
  readonly selectedTeam: Team | null;
  update(options: UserUpdateOptions): Promise<void>;
  setDisplayName(displayName: string | null): Promise<void>;
  setClientMetadata(metadata: unknown): Promise<void>;
  /** DELETE /users/me, then the session is marked invalid (spec §4). */
  delete(): Promise<void>;
}

export function currentUserFromJson(ctx: AppContext, session: Session, json: ClientUserJson): CurrentUser {
  const me = { session, allowAnonymousUser: true } as const;
  const update = async (options: UserUpdateOptions): Promise<void> => {
    await asClient.send(ctx.transport, "updateMe", { ...me, body: userUpdateToWire(options) });
  };
  return {
    ...baseUserFromJson(json),
    ...authMethods(ctx, session),
    // Teams and permissions: user-teams.ts, permissions.ts.
    ...clientUserTeams(ctx, me, json.selected_team, (body) =>
      asClient.send(ctx.transport, "updateMe", { ...me, body }).then(() => {}),
    ),
    ...userPermissionMethods(ctx, "me", me),
    // Contact channels, sessions, notification categories, API keys, verification and passwords: account-members.ts.
    ...userAccountMembers(ctx, me, "me"),
    ...signedInAccountMembers(ctx, session, json.primary_email),
    // Items and checkout (sdk-surface.md §15): items.ts.
    ...clientCustomerMethods(ctx, { type: "user", id: json.id }, session),
    // OAuth links, connected accounts, linking, passkeys (sdk-surface.md §9b, §11): connected-accounts.ts.
    ...signedInOAuthMembers(ctx, session),
    // Users of the `internal` project also own projects (sdk-surface.md §9d): internal-user.ts.
    ...internalUserExtra(ctx, session),
    update,
    setDisplayName: (displayName) => update({ displayName }),
    setClientMetadata: (clientMetadata) => update({ clientMetadata }),
    async delete() {
      await asClient.send(ctx.transport, "deleteMe", me);
      session.markInvalid();
    },
  };
}
