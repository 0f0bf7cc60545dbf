import { SNAPSHOT_VERSION } from "@authsim/sdk/emulator";
import type {
  ApiKeySetRecord,
  ProjectRecord,
  SessionRecord,
  SigningKeyRecord,
  SentEmailRecord,
  TeamMembershipRecord,
  TeamRecord,
  UserRecord,
  VerificationCodeRecord,
} from "./records.ts";
import type {
  PermissionDefinitionRecord,
  ProjectPermissionGrantRecord,
  TeamMemberProfileRecord,
  TeamPermissionGrantRecord,
} from "./team-records.ts";
import type { ContactChannelRecord, NotificationPreferenceRecord, ProjectApiKeyRecord } from "./account-records.ts";
import type {
  CheckoutSessionRecord,
  DataVaultEntryRecord,
  DefaultPaymentMethodRecord,
  ItemQuantityChangeRecord,
  PaymentAccountRecord,
  PaymentTransactionRecord,
  ProviderCustomerRecord,
  ProviderSubscriptionRecord,
  SetupIntentRecord,
  SubscriptionInvoiceRecord,
} from "./payment-records.ts";
import type {
  AiChatRecord,
  ConfigOverrideRecord,
  EmailDraftRecord,
  EmailTemplateRecord,
  EmailThemeRecord,
  ManagedEmailDomainRecord,
} from "./admin-records.ts";
import type {
  OAuthAccountRecord,
  OAuthAuthorizationCodeRecord,
  OAuthFlowRecord,
  OAuthGrantRecord,
  PasskeyRecord,
} from "./strong-auth-records.ts";
import type { IdpRecord, ProvisionedProjectRecord } from "./integration-records.ts";
import type { SessionReplayChunkRecord, SessionReplayRecord } from "./session-replay-records.ts";
import type { AnalyticsEventRecord, AnalyticsQueryLogRecord } from "./analytics-records.ts";
import type {
  SvixAppRecord,
  SvixAttemptRecord,
  SvixDeliveryRecord,
  SvixEndpointRecord,
  SvixMessageRecord,
  SvixTokenRecord,
} from "./webhook-records.ts";
import type {
  AiConversationRecord,
  AiMessageRecord,
  AiModelScriptRecord,
  ChatMessageRecord,
  FeatureRequestRecord,
  McpCallLogRecord,
  StoredObjectRecord,
} from "./service-records.ts";
import type { DbSyncFuseboxRecord, DbSyncRequestRecord, DbSyncStateRecord } from "./db-sync-records.ts";
import { Table, type Journal } from "./table.ts";
import { smtpPending } from "./records.ts";

/** The case-folded key under which a project's users are found by their primary email. */
export const emailKey = (projectId: string, email: string) => `${projectId}\u0000${email.toLowerCase()}`;

function createTables() {
  return {
    projects: new Table<ProjectRecord>(),
    apiKeySets: new Table<ApiKeySetRecord>({
      publishable: { key: (k) => (k.publishableClientKey ? `${k.projectId}\u0000${k.publishableClientKey}` : null) },
    }),
    users: new Table<UserRecord>({
      // Only emails that can sign in are unique within a project (protocol.md §7.2: used-for-auth channels).
      authEmail: {
        key: (u) => (u.primaryEmail && u.primaryEmailAuthEnabled ? emailKey(u.projectId, u.primaryEmail) : null),
      },
    }),
    sessions: new Table<SessionRecord>({ refreshToken: { key: (s) => s.refreshToken } }),
    signingKeys: new Table<SigningKeyRecord>(),
    teams: new Table<TeamRecord>(),
    teamMemberships: new Table<TeamMembershipRecord>(),
    teamMemberProfiles: new Table<TeamMemberProfileRecord>(),
    permissionDefinitions: new Table<PermissionDefinitionRecord>(),
    teamPermissionGrants: new Table<TeamPermissionGrantRecord>(),
    projectPermissionGrants: new Table<ProjectPermissionGrantRecord>(),
    verificationCodes: new Table<VerificationCodeRecord>({ code: { key: (c) => `${c.projectId}\u0000${c.code}` } }),
    // The entries the email queue has still to render (domain/ops/emails/email-queue.ts), found without scanning the outbox: the dev
    // server checks for due ones before every request.
    emails: new Table<SentEmailRecord>({
      awaitingRender: { key: (e) => (e.outbox?.awaitingRender === true ? e.id : null) },
      // Entries still to be handed to a project's own mail server (domain/ops/emails/smtp-delivery.ts).
      smtpPending: { key: (e) => (smtpPending(e) ? e.id : null) },
    }),
    /** Account surfaces (domain/ops/users/contact-channels.ts, domain/ops/projects/api-keys.ts, domain/ops/users/notifications.ts). */
    contactChannels: new Table<ContactChannelRecord>({
      // An address used for sign-in belongs to one user of a project (CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE).
      authValue: { key: (c) => (c.usedForAuth ? `${c.projectId}\u0000${c.type}\u0000${c.value.toLowerCase()}` : null) },
      // A user has each address once, and at most one primary channel.
      userValue: { key: (c) => `${c.userId}\u0000${c.type}\u0000${c.value.toLowerCase()}` },
      primary: { key: (c) => (c.isPrimary ? c.userId : null) },
    }),
    projectApiKeys: new Table<ProjectApiKeyRecord>({ value: { key: (k) => `${k.projectId}\u0000${k.value}` } }),
    notificationPreferences: new Table<NotificationPreferenceRecord>(),
    /** Payments and the data vault (domain/ops/payments/items.ts, domain/ops/payments/purchases.ts, domain/ops/payments/data-vault.ts; payment-records.ts). */
    itemQuantityChanges: new Table<ItemQuantityChangeRecord>(),
    paymentTransactions: new Table<PaymentTransactionRecord>(),
    checkoutSessions: new Table<CheckoutSessionRecord>(),
    paymentAccounts: new Table<PaymentAccountRecord>({ accountId: { key: (a) => a.accountId } }),
    subscriptionInvoices: new Table<SubscriptionInvoiceRecord>(),
    providerCustomers: new Table<ProviderCustomerRecord>(),
    providerSubscriptions: new Table<ProviderSubscriptionRecord>({ held: { key: (s) => s.heldSubscriptionId } }),
    // The browser confirms a setup intent by its client secret alone (any project's: the secret is the credential).
    setupIntents: new Table<SetupIntentRecord>({ clientSecret: { key: (i) => i.clientSecret } }),
    defaultPaymentMethods: new Table<DefaultPaymentMethodRecord>(),
    dataVaultEntries: new Table<DataVaultEntryRecord>(),
    /** The admin surface: email content, config overrides, AI chat threads (admin-records.ts). */
    emailThemes: new Table<EmailThemeRecord>(),
    emailTemplates: new Table<EmailTemplateRecord>(),
    emailDrafts: new Table<EmailDraftRecord>(),
    configOverrides: new Table<ConfigOverrideRecord>(),
    aiChats: new Table<AiChatRecord>(),
    /** Managed email sending subdomains (domain/ops/emails/managed-email.ts): one per project and subdomain. */
    managedEmailDomains: new Table<ManagedEmailDomainRecord>({
      subdomain: { key: (d) => `${d.projectId}\u0000${d.subdomain}` },
    }),
    /** Strong auth: OAuth links, grants, flows and codes; passkeys (strong-auth-records.ts). */
    oauthAccounts: new Table<OAuthAccountRecord>({
      // A provider account signs in to one user of a project (OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN).
      signIn: {
        key: (a) => (a.allowSignIn ? `${a.projectId}\u0000${a.providerConfigId}\u0000${a.providerAccountId}` : null),
      },
    }),
    oauthGrants: new Table<OAuthGrantRecord>(),
    oauthFlows: new Table<OAuthFlowRecord>({ innerCode: { key: (f) => f.innerCode } }),
    oauthAuthorizationCodes: new Table<OAuthAuthorizationCodeRecord>(),
    passkeys: new Table<PasskeyRecord>(),
    /** Session replays and their chunks of events (session-replay-records.ts, domain/ops/analytics/session-replays.ts). */
    sessionReplays: new Table<SessionReplayRecord>(),
    sessionReplayChunks: new Table<SessionReplayChunkRecord>(),
    /** Analytics events, bounded (analytics-records.ts, domain/ops/analytics/analytics-events.ts). */
    analyticsEvents: new Table<AnalyticsEventRecord>(),
    /** Webhooks as Svix keeps them (webhook-records.ts, domain/ops/webhooks/webhooks.ts). */
    svixApps: new Table<SvixAppRecord>({ uid: { key: (a) => a.uid } }),
    svixEndpoints: new Table<SvixEndpointRecord>(),
    svixMessages: new Table<SvixMessageRecord>(),
    // Deliveries with an attempt to come, found without scanning: the provider checks for due ones after every request.
    svixDeliveries: new Table<SvixDeliveryRecord>({
      scheduled: { key: (d) => (d.nextAttemptAtMillis !== null ? d.id : null) },
    }),
    svixAttempts: new Table<SvixAttemptRecord>(),
    svixTokens: new Table<SvixTokenRecord>(),
    /** Finished analytics queries, bounded (analytics-records.ts, domain/ops/analytics/analytics-query-timing.ts). */
    analyticsQueryLog: new Table<AnalyticsQueryLogRecord>(),
    /** The outside services of the dashboard's routes, as data (service-records.ts). */
    featureRequests: new Table<FeatureRequestRecord>(),
    mcpCallLog: new Table<McpCallLogRecord>(),
    chatMessages: new Table<ChatMessageRecord>(),
    /** Uploaded images, served by the storage server (domain/ops/storage/uploaded-images.ts, emulator/storage/). */
    storedObjects: new Table<StoredObjectRecord>(),
    aiConversations: new Table<AiConversationRecord>(),
    aiMessages: new Table<AiMessageRecord>(),
    aiModelScript: new Table<AiModelScriptRecord>(),
    /** The integrations' provisioned projects and identity provider (integration-records.ts, domain/ops/integrations/). */
    provisionedProjects: new Table<ProvisionedProjectRecord>(),
    integrationIdp: new Table<IdpRecord>(),
    /** The external database sync (db-sync-records.ts, domain/ops/db-sync/). */
    dbSyncStates: new Table<DbSyncStateRecord>(),
    dbSyncRequests: new Table<DbSyncRequestRecord>(),
    dbSyncFusebox: new Table<DbSyncFuseboxRecord>(),
    /** Monotonic sequence numbers (e.g. "emails"), so ordering survives clearing a table. */
    counters: new Table<number>(),
  };
}

export type Tables = ReturnType<typeof createTables>;

/** The next value of a named monotonic counter (inside a transaction). */
export function nextSequence(tables: Tables, name: string): number {
  const next = (tables.counters.get(name) ?? 0) + 1;
  tables.counters.set(name, next);
  return next;
}
type TableName = keyof Tables;

// The snapshot format is the control plane's (GET /snapshot, POST /restore), so its version is defined there.
export { SNAPSHOT_VERSION };
export interface StoreSnapshot {
  version: typeof SNAPSHOT_VERSION;
  tables: Record<string, [string, unknown][]>;
}

/**
 * The emulator's whole state. Operations run one at a time (a mutex keeps async steps such as password hashing from
 * interleaving) and atomically: every write is journalled and a throwing operation is rolled back, so a refused request
 * leaves no trace.
 */
export class Store {
  readonly tables: Tables = createTables();
  /** The same tables as a list, made once: every transaction attaches its journal to each of them and detaches it. */
  private readonly tableList = Object.values(this.tables) as Table<unknown>[];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly commitListeners = new Set<() => void>();

  /** Called after every committed transaction (never for a rolled-back one): e.g. outbox waiters. */
  onCommit(listener: () => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  transact<R>(operation: (tables: Tables) => R | Promise<R>): Promise<R> {
    const run = async () => {
      const undo: (() => void)[] = [];
      const journal: Journal = { record: (u) => undo.push(u) };
      this.attach(journal);
      let result: R;
      try {
        result = await operation(this.tables);
      } catch (error) {
        for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
        throw error;
      } finally {
        this.attach(null);
      }
      if (undo.length > 0) for (const listener of this.commitListeners) listener();
      return result;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * The same guarantees for a synchronous change made outside any request (seeding a new provider). Never call it while
   * requests may be in flight: it does not wait for the queue.
   */
  transactSync<R>(operation: (tables: Tables) => R): R {
    const undo: (() => void)[] = [];
    this.attach({ record: (u) => undo.push(u) });
    try {
      return operation(this.tables);
    } catch (error) {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
      throw error;
    } finally {
      this.attach(null);
    }
  }

  /** Reads that need no lock (a consistent view is guaranteed because writes happen only inside transact). */
  get read(): Tables {
    return this.tables;
  }

  snapshot(): StoreSnapshot {
    const tables: Record<string, [string, unknown][]> = {};
    for (const [name, table] of Object.entries(this.tables)) tables[name] = structuredClone(table.entries());
    return { version: SNAPSHOT_VERSION, tables };
  }

  /** Replaces the whole state; tables absent from the snapshot become empty. */
  restore(snapshot: StoreSnapshot): void {
    if (snapshot.version !== SNAPSHOT_VERSION)
      throw new Error(`Unsupported snapshot version ${String(snapshot.version)}`);
    for (const name of Object.keys(this.tables) as TableName[]) {
      const rows = snapshot.tables[name] ?? [];
      (this.tables[name] as Table<unknown>).load(structuredClone(rows));
    }
  }

  /** Replaces the whole state with `source`'s, sharing its records (Table.shareFrom): a fork's copy. */
  shareFrom(source: Store): void {
    for (const name of Object.keys(this.tables) as TableName[])
      (this.tables[name] as Table<unknown>).shareFrom(source.tables[name] as Table<unknown>);
  }

  private attach(journal: Journal | null): void {
    for (const table of this.tableList) table.attach(journal);
  }
}
