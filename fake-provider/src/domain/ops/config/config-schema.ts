import type { ConfigLevel } from "@authsim/sdk/contract";
import { isPrototypeKey } from "../../safe-keys.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * The keys a config override may name at each level, as the real service's config schema has them (its project,
 * branch and environment schemas; docs/config.md in this repo lists what authsim does with each section). The project
 * level holds only `sourceOfTruth` and `project`; the branch level everything a config file can push; the environment
 * level adds what must not be pushed (OAuth secrets, the email server, trusted domains, test mode, analytics).
 *
 * Only the key structure and the leaf types are checked here, like the real service checks an override on write
 * (cross-key rules are checked when the config is rendered). An unknown key is refused with the real message:
 * `The key "a.b" is not valid (nested object not found in schema: "a").` as a plain-text 400.
 */

export type SchemaNode =
  | { readonly kind: "object"; readonly fields: Readonly<Record<string, SchemaNode>> }
  | { readonly kind: "record"; readonly value: SchemaNode }
  | {
      readonly kind: "leaf";
      readonly type: "boolean" | "string" | "number" | "mixed";
      readonly oneOf?: readonly string[];
    };

const obj = (fields: Record<string, SchemaNode>): SchemaNode => ({ kind: "object", fields });
const rec = (value: SchemaNode): SchemaNode => ({ kind: "record", value });
const bool: SchemaNode = { kind: "leaf", type: "boolean" };
const str: SchemaNode = { kind: "leaf", type: "string" };
const num: SchemaNode = { kind: "leaf", type: "number" };
const mixed: SchemaNode = { kind: "leaf", type: "mixed" };
const oneOf = (...values: string[]): SchemaNode => ({ kind: "leaf", type: "string", oneOf: values });
const customerType = oneOf("user", "team", "custom");

const product = obj({
  displayName: str,
  productLineId: str,
  isAddOnTo: mixed,
  customerType,
  freeTrial: mixed,
  serverOnly: bool,
  stackable: bool,
  // A record of prices, or "include-by-default" (free, granted to every customer): checked when rendered.
  prices: mixed,
  includedItems: rec(
    obj({ quantity: num, repeat: mixed, expires: oneOf("never", "when-purchase-expires", "when-repeated") }),
  ),
  clientMetadata: mixed,
  clientReadOnlyMetadata: mixed,
  serverMetadata: mixed,
});

const branchPayments = {
  blockNewPurchases: bool,
  autoPay: obj({ interval: mixed }),
  productLines: rec(obj({ displayName: str, customerType })),
  products: rec(product),
  items: rec(obj({ displayName: str, customerType })),
};

const defaultPermissions = rec(bool);
/** The provider types the real config schema knows, in its order (its message lists them). */
const providerTypes = [
  "google",
  "github",
  "microsoft",
  "spotify",
  "facebook",
  "discord",
  "gitlab",
  "bitbucket",
  "linkedin",
  "apple",
  "x",
  "twitch",
];
const oauthProviderBranch = { type: oneOf(...providerTypes), allowSignIn: bool, allowConnectedAccounts: bool };

const branchFields = {
  rbac: obj({
    permissions: rec(obj({ description: str, scope: oneOf("team", "project"), containedPermissionIds: rec(bool) })),
    defaultPermissions: obj({
      teamCreator: defaultPermissions,
      teamMember: defaultPermissions,
      signUp: defaultPermissions,
    }),
  }),
  teams: obj({ createPersonalTeamOnSignUp: bool, allowClientTeamCreation: bool }),
  users: obj({ allowClientUserDeletion: bool }),
  onboarding: obj({ requireEmailVerification: bool }),
  apiKeys: obj({ enabled: obj({ team: bool, user: bool }) }),
  apps: obj({ installed: rec(obj({ enabled: bool })) }),
  domains: obj({}),
  auth: obj({
    allowSignUp: bool,
    password: obj({ allowSignIn: bool }),
    otp: obj({ allowSignIn: bool }),
    passkey: obj({ allowSignIn: bool }),
    oauth: obj({
      accountMergeStrategy: oneOf("link_method", "raise_error", "allow_duplicates"),
      providers: rec(obj(oauthProviderBranch)),
    }),
    signUpRules: rec(
      obj({
        enabled: bool,
        displayName: str,
        priority: num,
        condition: str,
        action: obj({ type: oneOf("allow", "reject", "restrict", "log"), message: str }),
      }),
    ),
    signUpRulesDefaultAction: oneOf("allow", "reject"),
  }),
  emails: obj({
    selectedThemeId: str,
    themes: rec(obj({ displayName: str, tsxSource: str })),
    templates: rec(obj({ displayName: str, tsxSource: str, themeId: mixed })),
  }),
  payments: obj(branchPayments),
  dbSync: obj({ externalDatabases: rec(obj({ type: oneOf("postgres"), connectionString: str })) }),
  dataVault: obj({ stores: rec(obj({ displayName: str })) }),
};

const environmentFields = {
  ...branchFields,
  auth: obj({
    ...(branchFields.auth as { fields: Record<string, SchemaNode> }).fields,
    oauth: obj({
      accountMergeStrategy: oneOf("link_method", "raise_error", "allow_duplicates"),
      providers: rec(
        obj({
          ...oauthProviderBranch,
          isShared: bool,
          clientId: str,
          clientSecret: str,
          facebookConfigId: str,
          microsoftTenantId: str,
          appleBundles: rec(obj({ bundleId: str })),
        }),
      ),
    }),
  }),
  emails: obj({
    ...(branchFields.emails as { fields: Record<string, SchemaNode> }).fields,
    server: obj({
      isShared: bool,
      provider: oneOf("resend", "smtp", "managed"),
      host: str,
      port: num,
      username: str,
      password: str,
      senderName: str,
      senderEmail: str,
      managedSubdomain: str,
      managedSenderLocalPart: str,
    }),
  }),
  domains: obj({ allowLocalhost: bool, trustedDomains: rec(obj({ baseUrl: str, handlerPath: str })) }),
  payments: obj({ ...branchPayments, testMode: bool }),
  analytics: obj({
    queryFolders: rec(
      obj({
        displayName: str,
        sortOrder: num,
        queries: rec(obj({ displayName: str, sqlQuery: str, description: str })),
      }),
    ),
  }),
  customDashboards: rec(obj({ displayName: str, tsxSource: str })),
};

export const levelSchemas: Readonly<Record<ConfigLevel, SchemaNode>> = {
  project: obj({ sourceOfTruth: mixed, project: obj({ requirePublishableClientKey: bool }) }),
  branch: obj(branchFields),
  environment: obj(environmentFields),
};

function child(node: SchemaNode, part: string): SchemaNode | undefined {
  if (isPrototypeKey(part)) return undefined;
  if (node.kind === "object") return Object.hasOwn(node.fields, part) ? node.fields[part] : undefined;
  if (node.kind === "record") return node.value;
  // Anything may sit under a free-form value (a price's currencies, metadata).
  return node.type === "mixed" ? node : undefined;
}

export function subSchema(root: SchemaNode, path: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = root;
  for (const part of path.split(".")) {
    node = node && child(node, part);
    if (!node) return undefined;
  }
  return node;
}

const unknownKey = (key: string, prefix: string) =>
  refusal("configKeyNotInSchema", JSON.stringify(key), JSON.stringify(prefix));

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Checks a value against its schema node; `null` is allowed anywhere (it resets the key to its default). */
function checkValue(node: SchemaNode, path: string, value: unknown): void {
  if (value === null) return;
  if (node.kind === "leaf") {
    if (node.type === "mixed") return;
    if (typeof value !== node.type || (node.type === "number" && !Number.isFinite(value))) {
      throw refusal("configValueWrongType", path, node.type, JSON.stringify(value));
    }
    if (node.oneOf && !node.oneOf.includes(value as string))
      throw refusal("configValueNotOneOf", path, node.oneOf.join(", "));
    return;
  }
  if (!isPlainObject(value)) throw refusal("configValueNotObject", path, JSON.stringify(value));
  for (const [key, inner] of Object.entries(value)) {
    const next = child(node, key);
    if (!next) throw unknownKey(`${path}.${key}`, `${path}.${key}`);
    checkValue(next, `${path}.${key}`, inner);
  }
}

/** Only top-level keys of an override may be dotted (the real service's rule and wording). */
export function assertNoNestedDots(override: Record<string, unknown>): void {
  const walk = (value: unknown): void => {
    if (!isPlainObject(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes(".")) throw refusal("configKeyHasDot", key);
      walk(inner);
    }
  };
  for (const value of Object.values(override)) walk(value);
}

/**
 * Refuses an override (as sent: top-level keys may be dotted, nested keys may not) that names a key the level's schema
 * lacks or gives a leaf the wrong type, with the real service's wording.
 */
export function assertValidOverride(level: ConfigLevel, override: Record<string, unknown>): void {
  const root = levelSchemas[level];
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    const node = subSchema(root, key);
    if (!node) {
      const parts = key.split(".");
      const first = parts.findIndex((_, i) => !subSchema(root, parts.slice(0, i + 1).join(".")));
      throw unknownKey(key, parts.slice(0, first + 1).join("."));
    }
    checkValue(node, key, value);
  }
}
