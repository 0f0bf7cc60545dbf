import type { ConfigLevel, ConfigSourceJson } from "@authsim/sdk/contract";
import type { OAuthProviderConfigRecord } from "../../store/admin-records.ts";
import type { ProjectConfigRecord, ProjectRecord } from "../../store/records.ts";
import { configLevels } from "@authsim/sdk/contract";
import {
  clearKeysEverywhere,
  getOverride,
  getWrittenOverride,
  isUnder,
  mergeOverride,
  removeKeys,
  sectionAfter,
  setOverride,
} from "./config-layers.ts";
import { flatten } from "./config-flat.ts";
import { emailConfigAfter } from "./config-email-server.ts";
import {
  booleanKeys,
  emailServerKey,
  isPlainObject,
  isProviderFlagKey,
  mergeStrategyKey,
  providersKey,
  providersOf,
  templatesKey,
  templatesOf,
  trustedDomainsKey,
  trustedDomainsOf,
} from "./config-render.ts";
import { migrateOverride } from "./config-migrations.ts";
import { applyRbacOverride } from "./config-rbac.ts";
import { assertNoNestedDots, assertValidOverride } from "./config-schema.ts";
import type { OpContext } from "../context.ts";
import { listTemplates, removeTemplate, saveTemplate } from "../emails/email-content.ts";
import { paymentSections } from "../payments/payments-config.ts";
import { refusal } from "../../errors/refusals.ts";

export { getSource, getWrittenOverride, unlinkSource } from "./config-layers.ts";

/**
 * The config system (protocol.md §6.5; spec §7 "/internal/config and /internal/config/override (override sent as a JSON
 * string)"). GET /internal/config renders the project's config (config-render.ts); an override is a
 * JSON object of dotted keys (or nested objects) written at a level, checked against that level's schema
 * (config-schema.ts) and stored as written (config-layers.ts, which renders from its flat form).
 *
 * Keys that mirror a setting the emulator enforces (sign-up, sign-in methods, teams, API keys, the email server …) also
 * change the project record the auth endpoints read, so they take effect at once, and render from it. The payments and
 * data-vault sections render from the layers (domain/ops/payments/payments-config.ts), and so does every other valid key.
 */

/**
 * Valid keys of settings the emulator keeps elsewhere with no mapping from the config yet (the email themes): refused
 * rather than stored where nothing reads them.
 */
const unmappedKeys = ["emails.selectedThemeId", "emails.themes"];
/** The override as sent (a JSON object); its keys are checked against the level's schema by writeOverride. */
export function parseOverride(json: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw refusal("invalidConfigJson");
  }
  if (!isPlainObject(parsed)) throw refusal("configOverrideNonNullObject");
  return parsed;
}

const text = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The record's provider list after the override: entries without a type are not providers (upstream skips them). */
function providersAfter(
  c: ProjectConfigRecord,
  keys: [string, unknown][],
  replaced: readonly string[],
): OAuthProviderConfigRecord[] {
  const providers: OAuthProviderConfigRecord[] = [];
  for (const [id, p] of Object.entries(sectionAfter(providersKey, providersOf(c), keys, replaced))) {
    if (!isPlainObject(p) || typeof p.type !== "string") continue;
    const fields = {
      client_id: text(p.clientId),
      client_secret: text(p.clientSecret),
      facebook_config_id: text(p.facebookConfigId),
      microsoft_tenant_id: text(p.microsoftTenantId),
    };
    providers.push({
      id,
      type: p.isShared === false ? "standard" : "shared",
      ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
    });
  }
  return providers;
}

/** The record's domain list after the override (a domain needs a base URL; the handler path defaults to /handler). */
function trustedDomainsAfter(
  c: ProjectConfigRecord,
  keys: [string, unknown][],
  replaced: readonly string[],
): ProjectConfigRecord["domains"] {
  return Object.entries(sectionAfter(trustedDomainsKey, trustedDomainsOf(c), keys, replaced)).flatMap(([id, d]) =>
    isPlainObject(d) && typeof d.baseUrl === "string"
      ? [{ id, domain: d.baseUrl, handler_path: text(d.handlerPath) ?? "/handler" }]
      : [],
  );
}

/**
 * The override's `emails.templates…` keys written into the templates table: an entry with a display name and a source
 * is a template (made or changed), one set to null or left without them is removed.
 */
function applyTemplateOverride(
  ctx: OpContext,
  projectId: string,
  override: Record<string, unknown>,
  replaced: readonly string[],
): void {
  const keys = Object.entries(override).filter(([key]) => isUnder(key, templatesKey));
  if (keys.length === 0) return;
  const before = new Map(listTemplates(ctx, projectId).map((t) => [t.id, t]));
  const after = sectionAfter(templatesKey, templatesOf(ctx, projectId), keys, replaced);
  for (const [id, t] of Object.entries(after)) {
    if (!isPlainObject(t) || typeof t.displayName !== "string" || typeof t.tsxSource !== "string") continue;
    const themeId = typeof t.themeId === "string" || t.themeId === false ? t.themeId : null;
    saveTemplate(ctx, {
      id,
      projectId,
      displayName: t.displayName,
      tsxSource: t.tsxSource,
      themeId,
      createdAtMillis: before.get(id)?.createdAtMillis ?? ctx.now,
    });
    before.delete(id);
  }
  for (const id of before.keys()) removeTemplate(ctx, projectId, id);
}

/** The project after the override's record keys (so the auth endpoints see them at once). */
function applyOverride(
  project: ProjectRecord,
  override: Record<string, unknown>,
  replaced: readonly string[] = [],
): ProjectRecord {
  const config: ProjectConfigRecord = { ...project.config };
  for (const key of Object.keys(override)) {
    const unmapped = unmappedKeys.find((k) => isUnder(key, k));
    if (unmapped !== undefined) throw refusal("invalidConfigOverrideAuthsimCannot", key);
  }
  for (const [key, value] of Object.entries(override)) {
    if (Object.hasOwn(booleanKeys, key) && typeof value === "boolean") config[booleanKeys[key]!] = value;
    else if (key === mergeStrategyKey && typeof value === "string")
      config.oauth_account_merge_strategy = value as ProjectConfigRecord["oauth_account_merge_strategy"];
  }
  const serverKeys = Object.entries(override).filter(([key]) => isUnder(key, emailServerKey));
  if (serverKeys.length > 0) config.email_config = emailConfigAfter(config, serverKeys);
  const providerKeys = Object.entries(override).filter(
    ([key]) => isUnder(key, providersKey) && !isProviderFlagKey(key),
  );
  if (providerKeys.length > 0) config.oauth_providers = providersAfter(config, providerKeys, replaced);
  const domainKeys = Object.entries(override).filter(([key]) => isUnder(key, trustedDomainsKey));
  if (domainKeys.length > 0) config.domains = trustedDomainsAfter(config, domainKeys, replaced);
  return { ...project, config };
}

/** Cross-key rules of the payments section, checked on the rendered config after a write (the real service's wording). */
function assertPaymentsConsistent(ctx: OpContext, project: ProjectRecord): void {
  const { payments } = paymentSections(ctx, project);
  const lines = isPlainObject(payments.productLines) ? payments.productLines : {};
  for (const [productId, product] of Object.entries(isPlainObject(payments.products) ? payments.products : {})) {
    if (!isPlainObject(product) || typeof product.productLineId !== "string") continue;
    const line = Object.hasOwn(lines, product.productLineId) ? lines[product.productLineId] : undefined;
    if (!isPlainObject(line)) {
      throw refusal("productSpecifiesProductLineId", productId, product.productLineId);
    }
    if (line.customerType !== undefined && (product.customerType ?? "user") !== line.customerType) {
      throw refusal(
        "productCustomerTypeButIts",
        productId,
        String(product.customerType),
        product.productLineId,
        String(line.customerType),
      );
    }
  }
}

/**
 * The override routes by level (GET, PUT and PATCH /internal/config/override/{level}) take server keys as well as
 * admin ones, but a server key reaches only the branch level: what `stack config push` writes from CI. Checked
 * first, as upstream checks it before anything else of the request's.
 */
export function assertOverrideLevelAccess(accessType: "client" | "server" | "admin", level: ConfigLevel): void {
  if (accessType !== "admin" && level !== "branch") throw refusal("serverAccessOnlyBranchOverrides");
}

/** PATCH (merge into the level) or PUT (replace the level) with an override as sent. */
export function writeOverride(
  ctx: OpContext,
  project: ProjectRecord,
  level: ConfigLevel,
  raw: Record<string, unknown>,
  mode: "merge" | "replace",
  source?: ConfigSourceJson,
): void {
  // A pushed branch config says where it came from (the real service's order: the override's own checks first).
  assertNoNestedDots(raw);
  const flat = flatten(raw, "refuse");
  const override = migrateOverride(level, flat);
  // Checked and stored as written, as upstream checks and keeps it (an unknown key is named as sent; GET answers each
  // key as given), unless older names were migrated: then in the flat form the migrations give.
  const written = JSON.stringify(override) !== JSON.stringify(flat) ? override : raw;
  assertValidOverride(level, written);
  if (mode === "replace" && level === "branch" && source === undefined)
    throw refusal("sourceRequiredBranchLevelConfig");
  // Email templates are records of their own (domain/ops/emails/email-content.ts): a template key writes or removes one.
  const replaced = Object.entries(raw).flatMap(([key, value]) => (isPlainObject(value) ? [key] : []));
  applyTemplateOverride(ctx, project.id, override, replaced);
  // Permission definitions and default permissions are records of their own too (config-rbac.ts).
  const withRbac = applyRbacOverride(ctx, project, override, replaced);
  const stored = mode === "merge" ? mergeOverride(getWrittenOverride(ctx, project.id, level), written) : written;
  setOverride(ctx, project.id, level, stored, level === "branch" ? source : undefined);
  const next = layeredProject(ctx, withRbac);
  ctx.tables.projects.set(next.id, next);
  assertPaymentsConsistent(ctx, next);
}

/** POST /internal/config/override/{level}/reset-keys: drops the keys and everything under them from the level. */
export function resetOverrideKeys(
  ctx: OpContext,
  project: ProjectRecord,
  level: ConfigLevel,
  keys: readonly string[],
): void {
  setOverride(ctx, project.id, level, removeKeys(getWrittenOverride(ctx, project.id, level), keys));
  ctx.tables.projects.set(project.id, layeredProject(ctx, project));
}

/** The record fields the layers decide (the rest of the record config is kept as it is). */
const layeredFields: readonly (keyof ProjectConfigRecord)[] = [
  ...(Object.values(booleanKeys) as (keyof ProjectConfigRecord)[]),
  "oauth_account_merge_strategy",
  "email_config",
  "oauth_providers",
  "domains",
];

/**
 * The project with its layered settings worked out again from its base and every level in order (project, branch,
 * environment), so a key reset or a branch pushed anew shows what the levels below say, as upstream renders them. The
 * base is the project's config before its first layer (ProjectRecord.configBase).
 */
function layeredProject(ctx: OpContext, project: ProjectRecord): ProjectRecord {
  const base = project.configBase ?? project.config;
  let layered: ProjectRecord = { ...project, config: { ...base } };
  for (const level of configLevels) {
    const keys = getOverride(ctx, project.id, level);
    layered = applyOverride(
      layered,
      keys,
      Object.keys(keys).filter((key) => isPlainObject(keys[key])),
    );
  }
  const config: ProjectConfigRecord = { ...project.config };
  for (const field of layeredFields) (config as unknown as Record<string, unknown>)[field] = layered.config[field];
  return { ...project, configBase: base, config };
}

/**
 * The admin's project update (PATCH /internal/projects/current) of a project with layers: upstream writes it into the
 * environment level, so it wins over every level; here it goes into the base and takes the keys it covers out of the
 * levels, to the same effect.
 */
export function settleLegacyUpdate(
  ctx: OpContext,
  project: ProjectRecord,
  base: ProjectConfigRecord | undefined,
  update: Partial<Record<keyof ProjectConfigRecord, unknown>>,
): ProjectRecord {
  if (base === undefined) return project;
  const covered: string[] = [];
  for (const [key, field] of Object.entries(booleanKeys))
    if (update[field as keyof ProjectConfigRecord] !== undefined) covered.push(key);
  if (update.oauth_account_merge_strategy !== undefined) covered.push(mergeStrategyKey);
  if (update.email_config !== undefined) covered.push(emailServerKey);
  if (update.oauth_providers !== undefined) covered.push(providersKey);
  if (update.domains !== undefined) covered.push(trustedDomainsKey);
  clearKeysEverywhere(ctx, project.id, covered);
  return { ...project, configBase: base };
}
