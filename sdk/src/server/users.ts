import { type UserListQuery } from "../contract/areas/users.ts";
import { isKnownErrorOfType } from "../errors/known-error.ts";
import type { AppContext } from "../client/app-context.ts";
import {
  serverUserCreateToWire,
  serverUserFromJson,
  serverUserUpdateToWire,
  type ServerUser,
  type ServerUserCreateOptions,
  type ServerUserUpdateOptions,
} from "./server-user.ts";
import type { CursorList } from "./cursor-list.ts";
import { asServer } from "../transport/operation-call.ts";

/** Server user management: POST/GET /users, GET/PATCH/DELETE /users/{id} (spec §7 "Server only", protocol.md §5.2). */

export interface ServerListUsersOptions {
  cursor?: string;
  limit?: number;
  orderBy?: "signedUpAt" | "lastActiveAt";
  desc?: boolean;
  query?: string;
  teamId?: string;
  includeRestricted?: boolean;
  includeAnonymous?: boolean;
  /** Only together with includeAnonymous: true (sdk-surface.md §7). */
  onlyAnonymous?: boolean;
}

export type { CursorList } from "./cursor-list.ts";

export async function createUser(ctx: AppContext, options: ServerUserCreateOptions): Promise<ServerUser> {
  const json = await asServer.json(ctx.transport, "createUser", { body: serverUserCreateToWire(options) });
  return serverUserFromJson(ctx, json);
}

/** USER_NOT_FOUND becomes null (spec §8: caught per call). */
export async function getUserById(ctx: AppContext, userId: string): Promise<ServerUser | null> {
  try {
    return serverUserFromJson(ctx, await asServer.json(ctx.transport, "getUser", { params: { user_id: userId } }));
  } catch (e) {
    if (isKnownErrorOfType(e, "USER_NOT_FOUND")) return null;
    throw e;
  }
}

export async function updateUser(ctx: AppContext, userId: string, options: ServerUserUpdateOptions): Promise<void> {
  await asServer.send(ctx.transport, "updateUser", {
    params: { user_id: userId },
    body: serverUserUpdateToWire(options),
  });
}

export async function deleteUser(ctx: AppContext, userId: string): Promise<void> {
  await asServer.send(ctx.transport, "deleteUser", { params: { user_id: userId } });
}

/** Query-string booleans are "true"/"false" (contract queryBoolean). */
const flag = (b: boolean | undefined) => (b === undefined ? undefined : String(b));

export async function listUsers(
  ctx: AppContext,
  options: ServerListUsersOptions = {},
): Promise<CursorList<ServerUser>> {
  if (options.onlyAnonymous && !options.includeAnonymous) {
    throw new Error("listUsers: onlyAnonymous needs includeAnonymous: true (sdk-surface.md §7).");
  }
  const query: { [K in keyof UserListQuery]?: string | number } = {
    cursor: options.cursor,
    limit: options.limit,
    order_by:
      options.orderBy === undefined ? undefined : options.orderBy === "signedUpAt" ? "signed_up_at" : "last_active_at",
    desc: flag(options.desc),
    query: options.query,
    team_id: options.teamId,
    include_restricted: flag(options.includeRestricted),
    include_anonymous: flag(options.includeAnonymous),
    only_anonymous: flag(options.onlyAnonymous),
  };
  const page = await asServer.json(ctx.transport, "listUsers", { query });
  return Object.assign(
    page.items.map((json) => serverUserFromJson(ctx, json)),
    { nextCursor: page.pagination.next_cursor },
  );
}
