import type { ProjectConfigRecord, ProjectRecord } from "../../store/records.ts";
import { completeConfig, createdProjectApps } from "./config-defaults.ts";
import { emailServerOf } from "./config-email-server.ts";
import { isUnder, renderLayers } from "./config-layers.ts";
import { providersKey, trustedDomainsKey } from "./config-flat.ts";
import type { OpContext } from "../context.ts";
import { listTemplates, listThemes } from "../emails/email-content.ts";
import { defaultTemplates } from "../../email/default-sources.ts";
import { paymentSections } from "../payments/payments-config.ts";
import { rbacKey, rbacOf } from "./config-rbac.ts";
import { signUpRulesOf } from "../sign-in/sign-up-rules.ts";

/**
 * The config as GET /internal/config renders it (protocol.md §6.5): the settings the emulator enforces from the
 * project record (the keys below name them), the other sections from the layers (config-layers.ts), all over the real
 * service's defaults (config-defaults.ts). Writing an override is project-config.ts.
 */

export type Flag = {
  [K in keyof ProjectConfigRecord]: ProjectConfigRecord[K] extends boolean ? K : never;
}[keyof ProjectConfigRecord];

/** Dotted config keys that are settings of the admin view, and the record field each one is. */
export const booleanKeys: Record<string, Flag> = {
  "auth.allowSignUp": "sign_up_enabled",
  "auth.password.allowSignIn": "credential_enabled",
  "auth.otp.allowSignIn": "magic_link_enabled",
  "auth.passkey.allowSignIn": "passkey_enabled",
  "teams.createPersonalTeamOnSignUp": "create_team_on_sign_up",
  "teams.allowClientTeamCreation": "client_team_creation_enabled",
  "users.allowClientUserDeletion": "client_user_deletion_enabled",
  "apiKeys.enabled.user": "allow_user_api_keys",
  "apiKeys.enabled.team": "allow_team_api_keys",
  "domains.allowLocalhost": "allow_localhost",
  "project.requirePublishableClientKey": "require_publishable_client_key",
};
export const mergeStrategyKey = "auth.oauth.accountMergeStrategy";
export const emailServerKey = "emails.server";

export { providersKey, trustedDomainsKey };
export const templatesKey = "emails.templates";
/** A provider's allow flags: the record has no place for them, so they render from the layers. */
export const isProviderFlagKey = (key: string) =>
  /^auth\.oauth\.providers\.[^.]+\.(allowSignIn|allowConnectedAccounts)$/.test(key);

/** Keys whose rendered value comes from the project record (it is the truth the auth endpoints read). */
const isRecordKey = (key: string) =>
  Object.hasOwn(booleanKeys, key) ||
  key === mergeStrategyKey ||
  isUnder(key, emailServerKey) ||
  isUnder(key, trustedDomainsKey) ||
  isUnder(key, templatesKey) ||
  isUnder(key, rbacKey) ||
  (isUnder(key, providersKey) && !isProviderFlagKey(key));
/** Keys rendered by domain/ops/payments/payments-config.ts. */
const isPaymentKey = (key: string) => isUnder(key, "payments") || isUnder(key, "dataVault");

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The OAuth providers as the config renders them, by id, from the record (their allow flags come from the layers). */
export function providersOf(c: ProjectConfigRecord): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    (c.oauth_providers ?? []).map((p) => [
      p.id,
      {
        type: p.id,
        isShared: p.type === "shared",
        clientId: p.client_id,
        clientSecret: p.client_secret,
        facebookConfigId: p.facebook_config_id,
        microsoftTenantId: p.microsoft_tenant_id,
      },
    ]),
  );
}

/** The trusted domains as the config renders them, by id (a domain set through the project view gets `domain-N`). */
export function trustedDomainsOf(c: ProjectConfigRecord): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    c.domains.map((d, i) => [d.id ?? `domain-${i}`, { baseUrl: d.domain, handlerPath: d.handler_path }]),
  );
}

/** The email templates as the config renders them, by id, from the table (a null theme id is left out). */
export function templatesOf(ctx: OpContext, projectId: string): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    listTemplates(ctx, projectId).map((t) => [
      t.id,
      { displayName: t.displayName, tsxSource: t.tsxSource, ...(t.themeId === null ? {} : { themeId: t.themeId }) },
    ]),
  );
}

/** The default templates, as they are before any change (what a project on the shared server has). */
function defaultTemplatesOf(ctx: OpContext, projectId: string): Record<string, Record<string, unknown>> {
  listTemplates(ctx, projectId);
  return Object.fromEntries(
    defaultTemplates.map((t) => [t.id, { displayName: t.displayName, tsxSource: t.tsxSource }]),
  );
}

/**
 * GET /internal/config: the whole config, settings first, then what overrides keep of other sections, over the real
 * service's defaults (config-defaults.ts), so every section and every field of an entry is there.
 */
export function renderConfig(ctx: OpContext, project: ProjectRecord): Record<string, unknown> {
  const c = project.config;
  const config: Record<string, unknown> = {
    project: { requirePublishableClientKey: c.require_publishable_client_key },
    teams: {
      createPersonalTeamOnSignUp: c.create_team_on_sign_up,
      allowClientTeamCreation: c.client_team_creation_enabled,
    },
    users: { allowClientUserDeletion: c.client_user_deletion_enabled },
    apiKeys: { enabled: { team: c.allow_team_api_keys, user: c.allow_user_api_keys } },
    domains: {
      allowLocalhost: c.allow_localhost,
      trustedDomains: trustedDomainsOf(c),
    },
    auth: {
      allowSignUp: c.sign_up_enabled,
      password: { allowSignIn: c.credential_enabled },
      otp: { allowSignIn: c.magic_link_enabled },
      passkey: { allowSignIn: c.passkey_enabled },
      oauth: {
        accountMergeStrategy: c.oauth_account_merge_strategy,
        providers: Object.fromEntries(
          Object.entries(providersOf(c)).map(([id, p]) => [
            id,
            { ...p, allowSignIn: true, allowConnectedAccounts: true },
          ]),
        ),
      },
    },
    emails: {
      server: emailServerOf(c),
      selectedThemeId: c.email_theme,
      themes: Object.fromEntries(
        listThemes(ctx, project.id).map((t) => [t.id, { displayName: t.displayName, tsxSource: t.tsxSource }]),
      ),
      // With the shared server a project has only the default templates (as upstream renders it); its own come back
      // with a server of its own.
      templates:
        c.email_config?.type === "standard" ? templatesOf(ctx, project.id) : defaultTemplatesOf(ctx, project.id),
    },
    rbac: rbacOf(ctx, project),
  };
  const sections = paymentSections(ctx, project);
  config.payments = {
    blockNewPurchases: false,
    testMode: true,
    productLines: {},
    products: {},
    items: {},
    ...sections.payments,
  };
  config.dataVault = { stores: {}, ...sections.dataVault };
  config.apps = {
    installed: Object.fromEntries(Object.entries(createdProjectApps).map(([id, enabled]) => [id, { enabled }])),
  };
  // Every other key an override holds renders as written (in level order); record and payment keys are rendered above.
  renderLayers(ctx, project.id, config, (key) => !isRecordKey(key) && !isPaymentKey(key));
  // A flag left in the layers for a provider the record no longer has is not a provider (upstream skips untyped ones).
  const oauth = (config.auth as { oauth: { providers: Record<string, Record<string, unknown>> } }).oauth;
  oauth.providers = Object.fromEntries(
    Object.entries(oauth.providers).filter(([, p]) => isPlainObject(p) && typeof p.type === "string"),
  );
  // Sign-up rules render with their defaults, in evaluation order (domain/ops/sign-in/sign-up-rules.ts), as upstream renders them.
  const signUp = signUpRulesOf(ctx, project.id);
  Object.assign(config.auth as Record<string, unknown>, {
    signUpRules: Object.fromEntries(signUp.rules),
    signUpRulesDefaultAction: signUp.defaultAction,
  });
  return completeConfig(config);
}
