import { fromEnv } from "../client/app-options.ts";
import { systemClock } from "../runtime/clock.ts";
import { AdminSession, type AdminAccessTokenProvider } from "../session/admin-session.ts";
import { StackServerApp, type StackServerAppOptions } from "../server/server-app.ts";
import { getAdminProject, type AdminProject } from "./projects.ts";
import * as internalApiKeys from "./internal-api-keys.ts";
import * as definitions from "./permission-definitions.ts";
import * as payments from "./payments.ts";

export interface StackAdminAppOptions extends StackServerAppOptions {
  /** Falls back to STACK_SUPER_SECRET_ADMIN_KEY. */
  superSecretAdminKey?: string;
  /** An admin access token of an `internal`-project user, or a function giving the current one (spec §6). */
  projectOwnerSession?: AdminAccessTokenProvider;
}

/** The admin app (sdk-surface.md §8): server powers plus project administration, with admin access. */
export class StackAdminApp extends StackServerApp {
  constructor(options: StackAdminAppOptions) {
    const superSecretAdminKey = options.superSecretAdminKey ?? fromEnv("STACK_SUPER_SECRET_ADMIN_KEY");
    const adminSession = options.projectOwnerSession
      ? new AdminSession(options.projectOwnerSession, options.clock ?? systemClock)
      : null;
    if (!superSecretAdminKey && !adminSession) {
      throw new Error("StackAdminApp needs superSecretAdminKey (or STACK_SUPER_SECRET_ADMIN_KEY) or projectOwnerSession.");
    }
    super(options, {
      accessType: "admin",
      secretServerKey: options.secretServerKey ?? fromEnv("STACK_SECRET_SERVER_KEY"),
      superSecretAdminKey,
      adminSession,
    });
  }

  /** Replaces the client's Project with the admin view (sdk-surface.md §8). */
  override getProject(): Promise<AdminProject> {
    return getAdminProject(this.ctx);
  }

  /** Internal API keys (sdk-surface.md §8, §19): full values only in createInternalApiKey's answer. */
  listInternalApiKeys(): Promise<internalApiKeys.InternalApiKey[]> {
    return internalApiKeys.listInternalApiKeys(this.ctx);
  }

  createInternalApiKey(options: internalApiKeys.InternalApiKeyCreateOptions): Promise<internalApiKeys.InternalApiKeyFirstView> {
    return internalApiKeys.createInternalApiKey(this.ctx, options);
  }

  /** Team-scope permission definitions (sdk-surface.md §8; the system `$…` ones are listed, never changed). */
  listTeamPermissionDefinitions(): Promise<definitions.AdminTeamPermissionDefinition[]> {
    return definitions.listDefinitions(this.ctx, "team");
  }

  listTeamPermissionDefinitionsPaginated(options: { limit: number; cursor?: string; query?: string }) {
    return definitions.listDefinitionsPaginated(this.ctx, "team", options);
  }

  createTeamPermissionDefinition(options: definitions.AdminTeamPermissionDefinitionCreateOptions): Promise<definitions.AdminPermission> {
    return definitions.createDefinition(this.ctx, "team", options);
  }

  updateTeamPermissionDefinition(permissionId: string, options: definitions.AdminTeamPermissionDefinitionUpdateOptions): Promise<void> {
    return definitions.updateDefinition(this.ctx, "team", permissionId, options);
  }

  deleteTeamPermissionDefinition(permissionId: string): Promise<void> {
    return definitions.deleteDefinition(this.ctx, "team", permissionId);
  }

  /** Project-scope permission definitions (sdk-surface.md §8). */
  listProjectPermissionDefinitions(): Promise<definitions.AdminProjectPermissionDefinition[]> {
    return definitions.listDefinitions(this.ctx, "project");
  }

  createProjectPermissionDefinition(options: definitions.AdminProjectPermissionDefinitionCreateOptions): Promise<definitions.AdminPermission> {
    return definitions.createDefinition(this.ctx, "project", options);
  }

  updateProjectPermissionDefinition(permissionId: string, options: definitions.AdminProjectPermissionDefinitionUpdateOptions): Promise<void> {
    return definitions.updateDefinition(this.ctx, "project", permissionId, options);
  }

  deleteProjectPermissionDefinition(permissionId: string): Promise<void> {
    return definitions.deleteDefinition(this.ctx, "project", permissionId);
  }

  /** Payments (sdk-surface.md §8): the payment-provider account, transactions and manual item changes (payments.ts). */
  setupPayments(): Promise<{ url: string }> {
    return payments.setupPayments(this.ctx);
  }

  /** Null until payments are set up (STRIPE_ACCOUNT_INFO_NOT_FOUND, spec §8). */
  getStripeAccountInfo(): Promise<payments.StripeAccountInfo | null> {
    return payments.getStripeAccountInfo(this.ctx);
  }

  createStripeWidgetAccountSession(): Promise<{ client_secret: string }> {
    return payments.createStripeWidgetAccountSession(this.ctx);
  }

  listTransactions(options?: payments.ListTransactionsOptions): Promise<{ transactions: payments.Transaction[]; nextCursor: string | null }> {
    return payments.listTransactions(this.ctx, options);
  }

  createItemQuantityChange(options: payments.ItemQuantityChangeOptions): Promise<void> {
    return payments.createItemQuantityChange(this.ctx, options);
  }
}
