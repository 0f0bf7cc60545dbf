/**
 * The complete config (GET /internal/config) is the layers rendered over the real service's schema defaults: every
 * top-level section is there even when nothing set it (the real dashboard reads `config.apps.installed[id]` and
 * `config.analytics` of every project), and every entry of a record section (a provider, a product, a vault store …)
 * has each of its fields. These are the defaults of the real service's config schema (what `null` or a missing key
 * means), written down as data; `undefined` stands for a field with no default, which JSON leaves out.
 */

/**
 * A record section: each entry, whatever its key, gets `entry(key)`'s fields where it has none of its own; with no
 * `entry`, the entries are values kept as they are (a set of ids, `{id: true}`).
 */
interface RecordDefaults {
  readonly entry: ((key: string) => Defaults) | null;
}
type Defaults = { readonly [key: string]: Defaults | RecordDefaults | string | number | boolean | undefined };

const perEntry = (entry: (key: string) => Defaults): RecordDefaults => ({ entry });
const idSet: RecordDefaults = { entry: null };
const isRecordDefaults = (d: unknown): d is RecordDefaults =>
  typeof d === "object" && d !== null && Object.hasOwn(d, "entry");
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The real service's apps, in its order (the rendered `apps.installed` is sorted so). */
export const appIds = [
  "authentication",
  "fraud-protection",
  "onboarding",
  "teams",
  "rbac",
  "api-keys",
  "payments",
  "emails",
  "email-api",
  "data-vault",
  "webhooks",
  "tv-mode",
  "launch-checklist",
  "catalyst",
  "neon",
  "convex",
  "vercel",
  "analytics",
] as const;

/**
 * What the real service writes into a project's environment level when it creates one: the authentication and emails
 * apps are installed. authsim renders them under the layers, so an override of any level still decides.
 */
export const createdProjectApps: Readonly<Record<string, boolean>> = { authentication: true, emails: true };

const configDefaults: Defaults = {
  sourceOfTruth: { type: "hosted" },
  project: { requirePublishableClientKey: false },
  rbac: {
    permissions: perEntry(() => ({ containedPermissionIds: idSet, description: undefined, scope: undefined })),
    defaultPermissions: { teamCreator: idSet, teamMember: idSet, signUp: idSet },
  },
  apiKeys: { enabled: { team: false, user: false } },
  apps: { installed: Object.fromEntries(appIds.map((id) => [id, { enabled: false }])) },
  teams: { createPersonalTeamOnSignUp: false, allowClientTeamCreation: false },
  users: { allowClientUserDeletion: false },
  onboarding: { requireEmailVerification: false },
  domains: { allowLocalhost: false, trustedDomains: perEntry(() => ({ baseUrl: undefined, handlerPath: "/handler" })) },
  auth: {
    allowSignUp: true,
    password: { allowSignIn: false },
    otp: { allowSignIn: false },
    passkey: { allowSignIn: false },
    oauth: {
      accountMergeStrategy: "link_method",
      providers: perEntry(() => ({ isShared: true, allowSignIn: false, allowConnectedAccounts: false })),
    },
    signUpRules: perEntry(() => ({ enabled: false, priority: 0, action: { type: "allow" } })),
    signUpRulesDefaultAction: "allow",
  },
  emails: {
    server: { isShared: true, provider: "smtp" },
    themes: perEntry(() => ({
      displayName: "Unnamed Theme",
      tsxSource: "Error: Theme config is missing TypeScript source code.",
    })),
    templates: perEntry(() => ({
      displayName: "Unnamed Template",
      tsxSource: "Error: Template config is missing TypeScript source code.",
    })),
  },
  payments: {
    blockNewPurchases: false,
    testMode: true,
    productLines: perEntry(() => ({})),
    products: perEntry((key) => ({
      displayName: key,
      customerType: "user",
      serverOnly: false,
      isAddOnTo: false,
      prices: perEntry(() => ({ serverOnly: false })),
      includedItems: perEntry(() => ({ quantity: 0, repeat: "never", expires: "when-repeated" })),
    })),
    items: perEntry((key) => ({ displayName: key, customerType: "user" })),
  },
  dbSync: { externalDatabases: perEntry(() => ({})) },
  dataVault: { stores: perEntry(() => ({ displayName: "Unnamed Vault" })) },
  analytics: {
    queryFolders: perEntry(() => ({
      displayName: "Unnamed Folder",
      sortOrder: 0,
      queries: perEntry(() => ({ displayName: "Unnamed Query", sqlQuery: "" })),
    })),
  },
  customDashboards: perEntry(() => ({
    displayName: "Unnamed Dashboard",
    tsxSource: "Error: Dashboard config is missing source code.",
  })),
};

/**
 * `config` with the defaults filled in where it has no value (a missing key or `null`), recursively: a record
 * section's entries each get their own defaults, and an entry set to `null` stays `null` (it is not an entry). What
 * the config sets that the defaults do not know is kept as it is.
 */
function withDefaults(defaults: Defaults | RecordDefaults, config: unknown): unknown {
  if (isRecordDefaults(defaults)) {
    if (!isPlainObject(config)) return {};
    const { entry: entryDefaults } = defaults;
    if (entryDefaults === null) return { ...config };
    return Object.fromEntries(
      Object.entries(config).map(([key, entry]) => [
        key,
        entry === null ? null : withDefaults(entryDefaults(key), entry),
      ]),
    );
  }
  const out: Record<string, unknown> = {};
  for (const [key, d] of Object.entries(defaults)) {
    if (d === undefined) continue;
    out[key] = typeof d === "object" ? withDefaults(d, undefined) : d;
  }
  if (!isPlainObject(config)) return out;
  for (const [key, value] of Object.entries(config)) {
    const d = Object.hasOwn(defaults, key) ? defaults[key] : undefined;
    if (value === null || value === undefined) continue;
    out[key] = d !== undefined && typeof d === "object" && isPlainObject(value) ? withDefaults(d, value) : value;
  }
  return out;
}

/**
 * The rendered config as the real service answers it: defaults under everything, and `apps.installed` in the real
 * service's app order (unknown app ids after them).
 */
export function completeConfig(rendered: Record<string, unknown>): Record<string, unknown> {
  const complete = withDefaults(configDefaults, rendered) as Record<string, unknown>;
  const apps = complete.apps as { installed: Record<string, unknown> };
  const order = (id: string) => {
    const index = (appIds as readonly string[]).indexOf(id);
    return index === -1 ? appIds.length : index;
  };
  apps.installed = Object.fromEntries(Object.entries(apps.installed).sort(([a], [b]) => order(a) - order(b)));
  return complete;
}
