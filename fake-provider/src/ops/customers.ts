import type { CustomerType } from "@authsim/sdk/contract";
import type { Auth } from "../auth/parse-auth.ts";
import { knownError } from "../http/known-error.ts";
import type { OpContext } from "./context.ts";

/**
 * Customers of payments (spec §3 "Item": a user, a team or a custom customer id) and who may act for them.
 * Teams and memberships are read here, never written (they belong to the teams area).
 */

export interface Customer {
  type: CustomerType;
  id: string;
}

/** Users and teams must exist in the project; custom ids are the project's own and always exist. */
export function assertCustomerExists(ctx: OpContext, projectId: string, customer: Customer): void {
  const exists =
    customer.type === "custom" ||
    (customer.type === "user" && ctx.tables.users.get(customer.id)?.projectId === projectId) ||
    (customer.type === "team" && ctx.tables.teams.get(customer.id)?.projectId === projectId);
  if (!exists) throw knownError("CUSTOMER_DOES_NOT_EXIST", { customer_id: customer.id });
}

function isTeamMember(ctx: OpContext, teamId: string, userId: string): boolean {
  for (const membership of ctx.tables.teamMemberships.values()) {
    if (membership.teamId === teamId && membership.userId === userId) return true;
  }
  return false;
}

/**
 * A client acts for its own user and the teams it belongs to, nothing else (upstream's ensureClientCanAccessCustomer).
 * It needs a signed-in user (USER_AUTHENTICATION_REQUIRED). Acting for anyone else is what server access is for, so
 * the refusal is INSUFFICIENT_ACCESS_TYPE (upstream answers a plain 403 text; a catalogue code lets SDK callers switch
 * on it, as ops/access.ts argues for the other areas). Server and admin access may act for any customer.
 */
export function assertMayActFor(ctx: OpContext, auth: Auth, customer: Customer): void {
  if (auth.type !== "client") return;
  const user = auth.user;
  if (!user) throw knownError("USER_AUTHENTICATION_REQUIRED");
  const allowed = (customer.type === "user" && customer.id === user.id) || (customer.type === "team" && isTeamMember(ctx, customer.id, user.id));
  if (!allowed) throw knownError("INSUFFICIENT_ACCESS_TYPE", { actual_access_type: auth.type, allowed_access_types: ["server", "admin"] });
}
