import { fromEnv } from "../client/app-options.ts";
import { systemClock } from "../runtime/clock.ts";
import { AdminSession, type AdminAccessTokenProvider } from "../session/admin-session.ts";
import { StackServerApp, type StackServerAppOptions } from "../server/server-app.ts";
import type { AdminProjectJson } from "../contract/areas/projects.ts";
import { getManagedAdminProject, managedAdminProjectFromJson, type ManagedAdminProject } from "./project-admin.ts";
import * as emails from "./emails.ts";
import * as managedEmail from "./managed-email.ts";
import * as onboarding from "./onboarding.ts";
import * as misc from "./admin-misc.ts";
import type { ThemeChoice } from "../contract/areas/emails.ts";
import type { Result } from "../errors/result.ts";
import * as internalApiKeys from "./internal-api-keys.ts";
import * as definitions from "./permission-definitions.ts";
import * as payments from "./payments.ts";
import { AppConfigError } from "../client/app-config-error.ts";

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
      throw new Error(
        "StackAdminApp needs superSecretAdminKey (or STACK_SUPER_SECRET_ADMIN_KEY) or projectOwnerSession.",
      );
    }
    super(options, {
      accessType: "admin",
      secretServerKey: options.secretServerKey ?? fromEnv("STACK_SECRET_SERVER_KEY"),
      superSecretAdminKey,
      adminSession,
    });
  }

  /** Replaces the client's Project with the admin view and its calls (sdk-surface.md §8, §17; project-admin.ts). */
  override getProject(): Promise<ManagedAdminProject> {
    return getManagedAdminProject(this.ctx);
  }

  /** The admin project of this app from its JSON (owned projects of internal users; spec §5: the ids must match). */
  projectFromJson(json: AdminProjectJson): ManagedAdminProject {
    return managedAdminProjectFromJson(this.ctx, json);
  }

  /**
   * An owned project of an `internal` user, with this app to administer it (sdk-surface.md §17 AdminOwnedProject).
   * Spec §5: such an app must have no token store; it acts with the owner's session, and a store of its own would
   * sign someone in to the owned project instead.
   */
  ownedProjectFromJson(json: AdminProjectJson): ManagedAdminProject & { readonly app: StackAdminApp } {
    if (this.ctx.session() !== null) {
      throw new AppConfigError(
        "OWNED_APP_HAS_TOKEN_STORE",
        "Owned apps must have no token store (tokenStore: null): they act with the project owner's session. Create them through the internal user's createProject or listOwnedProjects.",
      );
    }
    return { ...this.projectFromJson(json), app: this };
  }

  /** Internal API keys (sdk-surface.md §8, §19): full values only in createInternalApiKey's answer. */
  listInternalApiKeys(): Promise<internalApiKeys.InternalApiKey[]> {
    return internalApiKeys.listInternalApiKeys(this.ctx);
  }

  createInternalApiKey(
    options: internalApiKeys.InternalApiKeyCreateOptions,
  ): Promise<internalApiKeys.InternalApiKeyFirstView> {
    return internalApiKeys.createInternalApiKey(this.ctx, options);
  }

  /** Team-scope permission definitions (sdk-surface.md §8; the system `$…` ones are listed, never changed). */
  listTeamPermissionDefinitions(): Promise<definitions.AdminTeamPermissionDefinition[]> {
    return definitions.listDefinitions(this.ctx, "team");
  }

  listTeamPermissionDefinitionsPaginated(options: { limit: number; cursor?: string; query?: string }) {
    return definitions.listDefinitionsPaginated(this.ctx, "team", options);
  }

  createTeamPermissionDefinition(
    options: definitions.AdminTeamPermissionDefinitionCreateOptions,
  ): Promise<definitions.AdminPermission> {
    return definitions.createDefinition(this.ctx, "team", options);
  }

  updateTeamPermissionDefinition(
    permissionId: string,
    options: definitions.AdminTeamPermissionDefinitionUpdateOptions,
  ): Promise<void> {
    return definitions.updateDefinition(this.ctx, "team", permissionId, options);
  }

  deleteTeamPermissionDefinition(permissionId: string): Promise<void> {
    return definitions.deleteDefinition(this.ctx, "team", permissionId);
  }

  /** Project-scope permission definitions (sdk-surface.md §8). */
  listProjectPermissionDefinitions(): Promise<definitions.AdminProjectPermissionDefinition[]> {
    return definitions.listDefinitions(this.ctx, "project");
  }

  createProjectPermissionDefinition(
    options: definitions.AdminProjectPermissionDefinitionCreateOptions,
  ): Promise<definitions.AdminPermission> {
    return definitions.createDefinition(this.ctx, "project", options);
  }

  updateProjectPermissionDefinition(
    permissionId: string,
    options: definitions.AdminProjectPermissionDefinitionUpdateOptions,
  ): Promise<void> {
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

  listTransactions(
    options?: payments.ListTransactionsOptions,
  ): Promise<{ transactions: payments.Transaction[]; nextCursor: string | null }> {
    return payments.listTransactions(this.ctx, options);
  }

  createItemQuantityChange(options: payments.ItemQuantityChangeOptions): Promise<void> {
    return payments.createItemQuantityChange(this.ctx, options);
  }

  /** Email themes (sdk-surface.md §8, §20; emails.ts): TSX sources, checked by rendering when saved. */
  listEmailThemes(): Promise<emails.EmailThemeSummary[]> {
    return emails.listEmailThemes(this.ctx);
  }

  getEmailTheme(id: string): Promise<{ displayName: string; tsxSource: string }> {
    return emails.getEmailTheme(this.ctx, id);
  }

  createEmailTheme(displayName: string): Promise<{ id: string }> {
    return emails.createEmailTheme(this.ctx, displayName);
  }

  updateEmailTheme(id: string, tsxSource: string): Promise<void> {
    return emails.updateEmailTheme(this.ctx, id, tsxSource);
  }

  deleteEmailTheme(id: string): Promise<void> {
    return emails.deleteEmailTheme(this.ctx, id);
  }

  /** Email templates; a second template of the same name is EMAIL_TEMPLATE_ALREADY_EXISTS (spec §8). */
  listEmailTemplates(): Promise<emails.EmailTemplateRecord[]> {
    return emails.listEmailTemplates(this.ctx);
  }

  createEmailTemplate(displayName: string): Promise<{ id: string }> {
    return emails.createEmailTemplate(this.ctx, displayName);
  }

  updateEmailTemplate(id: string, tsxSource: string, themeId?: ThemeChoice): Promise<{ renderedHtml: string }> {
    return emails.updateEmailTemplate(this.ctx, id, tsxSource, themeId);
  }

  deleteEmailTemplate(id: string): Promise<void> {
    return emails.deleteEmailTemplate(this.ctx, id);
  }

  /** Email drafts: written for one send; sentAt is set once sent. */
  listEmailDrafts(): Promise<emails.EmailDraftRecord[]> {
    return emails.listEmailDrafts(this.ctx);
  }

  createEmailDraft(options: emails.EmailDraftCreateOptions): Promise<{ id: string }> {
    return emails.createEmailDraft(this.ctx, options);
  }

  updateEmailDraft(id: string, options: emails.EmailDraftOptions): Promise<void> {
    return emails.updateEmailDraft(this.ctx, id, options);
  }

  deleteEmailDraft(id: string): Promise<void> {
    return emails.deleteEmailDraft(this.ctx, id);
  }

  /** The HTML of a theme and template, rendered by the provider (POST /emails/render-email). */
  getEmailPreview(options: emails.EmailPreviewOptions): Promise<string> {
    return emails.getEmailPreview(this.ctx, options);
  }

  /** Success, or the delivery's error message (spec §4). */
  sendTestEmail(options: {
    recipientEmail: string;
    emailConfig: emails.SmtpConfigOptions;
  }): Promise<Result<void, { errorMessage: string }>> {
    return emails.sendTestEmail(this.ctx, options);
  }

  listSentEmails(): Promise<emails.AdminSentEmail[]> {
    return emails.listSentEmails(this.ctx);
  }

  sendSignInInvitationEmail(email: string, callbackUrl: string): Promise<void> {
    return emails.sendSignInInvitationEmail(this.ctx, email, callbackUrl);
  }

  /** Managed email onboarding (sdk-surface.md §8; managed-email.ts): a sending subdomain set up, checked and applied. */
  setupManagedEmailProvider(options: {
    subdomain: string;
    senderLocalPart: string;
  }): Promise<managedEmail.ManagedEmailProviderSetupResult> {
    return managedEmail.setupManagedEmailProvider(this.ctx, options);
  }

  checkManagedEmailStatus(options: {
    domainId: string;
    subdomain: string;
    senderLocalPart: string;
  }): Promise<managedEmail.ManagedEmailProviderStatus> {
    return managedEmail.checkManagedEmailStatus(this.ctx, options);
  }

  listManagedEmailDomains(): Promise<managedEmail.ManagedEmailProviderListItem[]> {
    return managedEmail.listManagedEmailDomains(this.ctx);
  }

  /** Makes the verified domain the project's email server (its config's `emails.server`). */
  applyManagedEmailProvider(options: { domainId: string }): Promise<{ status: "applied" }> {
    return managedEmail.applyManagedEmailProvider(this.ctx, options);
  }

  /** `resendDomainId`: the domain's id (its `domainId`), under the name the published kit gives it. */
  deleteManagedEmailDomain(options: { resendDomainId: string }): Promise<{ status: "deleted" }> {
    return managedEmail.deleteManagedEmailDomain(this.ctx, options);
  }

  /** The users an onboarding change would restrict, before it is made (onboarding.ts). */
  previewAffectedUsersByOnboardingChange(
    change: onboarding.OnboardingChange,
    limit?: number,
  ): Promise<{ affectedUsers: onboarding.AffectedUser[]; totalAffectedCount: number }> {
    return onboarding.previewAffectedUsersByOnboardingChange(this.ctx, change, limit);
  }

  /** Metrics, the webhook token and AI chat threads (admin-misc.ts). */
  getMetrics(includeAnonymous?: boolean) {
    return misc.getMetrics(this.ctx, includeAnonymous);
  }

  getSvixToken(): Promise<{ token: string; url?: string }> {
    return misc.getSvixToken(this.ctx);
  }

  saveChatMessage(threadId: string, message: unknown): Promise<void> {
    return misc.saveChatMessage(this.ctx, threadId, message);
  }

  listChatMessages(threadId: string): Promise<{ messages: unknown[] }> {
    return misc.listChatMessages(this.ctx, threadId);
  }
}
