import { applyManagedEmail, checkManagedEmail, deleteManagedEmail, listManagedEmailDomains, setupManagedEmail } from "../../domain/ops/managed-email.ts";
import { ok, type RouteTable } from "./define.ts";

/** Managed email onboarding, admin only (domain/ops/managed-email.ts). */
export const managedEmailRoutes: RouteTable = {
  setupManagedEmail: { handler: ({ auth, ctx, body }) => ok(setupManagedEmail(ctx, auth.project, body)) },
  listManagedEmailDomains: { handler: ({ auth, ctx }) => ok(listManagedEmailDomains(ctx, auth.project)) },
  checkManagedEmail: { handler: ({ auth, ctx, body }) => ok(checkManagedEmail(ctx, auth.project, body)) },
  applyManagedEmail: { handler: ({ auth, ctx, body }) => ok(applyManagedEmail(ctx, auth.project, body)) },
  deleteManagedEmail: { handler: ({ auth, ctx, body }) => ok(deleteManagedEmail(ctx, auth.project, body)) },
};
