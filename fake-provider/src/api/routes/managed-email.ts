import {
  applyManagedEmail,
  checkManagedEmail,
  deleteManagedEmail,
  listManagedEmailDomains,
  setupManagedEmail,
} from "../../domain/ops/emails/managed-email.ts";
import { receiveResendWebhook } from "../../domain/ops/emails/resend-webhooks.ts";
import { rawBodyOf, schemaError } from "../http/parse.ts";
import { ok, type RouteTable } from "./define.ts";
import { where } from "./user-by-schema.ts";

const SVIX_HEADERS = ["svix-id", "svix-timestamp", "svix-signature"] as const;

/** Managed email onboarding, admin only (domain/ops/emails/managed-email.ts). */
export const managedEmailRoutes: RouteTable = {
  resendWebhook: {
    handler: async ({ ctx, request }) => {
      // Upstream's schema requires the three Svix headers; the signature covers the exact bytes sent.
      const [id, timestamp, signature] = SVIX_HEADERS.map((name) => request.headers.get(name));
      const missing = SVIX_HEADERS.filter((name) => request.headers.get(name) === null).map(
        (name) => `headers.${name} must be defined`,
      );
      if (missing.length > 0 || !id || !timestamp || !signature) throw schemaError(where(request), missing);
      return ok(await receiveResendWebhook(ctx, { id, timestamp, signature }, rawBodyOf(request) ?? ""));
    },
  },
  setupManagedEmail: { handler: ({ auth, ctx, body }) => ok(setupManagedEmail(ctx, auth.project, body)) },
  listManagedEmailDomains: { handler: ({ auth, ctx }) => ok(listManagedEmailDomains(ctx, auth.project)) },
  checkManagedEmail: { handler: ({ auth, ctx, body }) => ok(checkManagedEmail(ctx, auth.project, body)) },
  applyManagedEmail: { handler: ({ auth, ctx, body }) => ok(applyManagedEmail(ctx, auth.project, body)) },
  deleteManagedEmail: { handler: ({ auth, ctx, body }) => ok(deleteManagedEmail(ctx, auth.project, body)) },
};
