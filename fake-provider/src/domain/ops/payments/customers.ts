import type { CustomerType } from "@authsim/sdk/contract";
import type { Auth } from "../../auth/caller.ts";
import { knownError, StatusError } from "../../errors/known-error.ts";
import { requireTeamPermission } from "../teams/permission-grants.ts";
import type { OpContext } from "../context.ts";

/**
 * Customers of payments (spec §3 "Item": a user, a team or a custom customer id) and who may act for them.
 * Teams and memberships are read here, never written (they belong to the teams area).
 */

export interface Customer {
  type: CustomerType;
  id: string;
}

/**
 * Users and teams must exist in the project (USER_NOT_FOUND, TEAM_NOT_FOUND, as upstream's ensureCustomerExists
 * answers on every payments route); custom ids are the project's own and always exist.
 */
export function assertCustomerExists(ctx: OpContext, projectId: string, customer: Customer): void {
  if (customer.type === "user" && ctx.tables.users.get(customer.id)?.projectId !== projectId)
    throw knownError("USER_NOT_FOUND");
  if (customer.type === "team" && ctx.tables.teams.get(customer.id)?.projectId !== projectId)
    throw knownError("TEAM_NOT_FOUND", { team_id: customer.id });
}

/**
 * The client check of upstream's billing and product routes (ensureClientCanAccessCustomer): a signed-in user, acting
 * for itself, or for a team in which it holds team_admin; custom customers and other users are a plain 403 with the
 * route's own message.
 */
export function assertClientMayManage(
  ctx: OpContext,
  auth: Auth,
  customer: Customer,
  forbidden: () => StatusError,
): void {
  if (auth.type !== "client") return;
  const user = auth.user;
  if (!user) throw knownError("USER_AUTHENTICATION_REQUIRED");
  if (customer.type === "custom" || (customer.type === "user" && customer.id !== user.id)) throw forbidden();
  if (customer.type === "team") requireTeamPermission(ctx, auth.project.id, customer.id, user.id, "team_admin");
}
