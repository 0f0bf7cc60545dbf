import type { AdminOAuthProviderUpdate } from "@authsim/sdk/contract";
import { refusal } from "../../errors/refusals.ts";
import type { OAuthProviderConfigRecord } from "../../store/admin-records.ts";
import type { ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { updateAdminProject } from "../projects/project-admin.ts";
import { createEndpoint, projectApp } from "../webhooks/webhooks.ts";

/**
 * The integrations' admin views of a project (upstream: integrations/<family>/domains, integrations/neon/oauth-providers
 * and /webhooks): each reads the project's config and writes it back through the same project update the dashboard
 * uses, so their checks and answers are that update's.
 */

const MAX_TRUSTED_DOMAINS = 1000;

/** GET …/domains: the trusted domains, sorted, by their URL only. */
export function listIntegrationDomains(project: ProjectRecord) {
  const items = project.config.domains
    .map((d) => ({ domain: d.domain }))
    .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
  return { items, is_paginated: false as const };
}

/** POST …/domains: appended with the default handler path. */
export function addIntegrationDomain(ctx: OpContext, project: ProjectRecord, domain: string): { domain: string } {
  const domains = project.config.domains;
  if (domains.length > MAX_TRUSTED_DOMAINS) throw refusal("tooManyTrustedDomains");
  updateAdminProject(ctx, project, { config: { domains: [...domains, { domain, handler_path: "/handler" }] } });
  return { domain };
}

/** DELETE …/domains/<domain>: every entry with that URL goes (none is no error). */
export function removeIntegrationDomain(ctx: OpContext, project: ProjectRecord, domain: string): void {
  const domains = project.config.domains.filter((d) => d.domain !== domain);
  updateAdminProject(ctx, project, { config: { domains } });
}

/** A configured provider as Neon's routes show it. */
function neonView(p: OAuthProviderConfigRecord) {
  return {
    id: p.id,
    type: p.type,
    ...(p.type === "standard" ? { client_id: p.client_id, client_secret: p.client_secret } : {}),
    ...(p.type === "standard" && p.facebook_config_id !== undefined
      ? { facebook_config_id: p.facebook_config_id }
      : {}),
    ...(p.type === "standard" && p.microsoft_tenant_id !== undefined
      ? { microsoft_tenant_id: p.microsoft_tenant_id }
      : {}),
  };
}
const providersOf = (project: ProjectRecord): OAuthProviderConfigRecord[] => project.config.oauth_providers ?? [];
const asUpdate = (p: OAuthProviderConfigRecord): AdminOAuthProviderUpdate =>
  ({ ...neonView(p) }) as AdminOAuthProviderUpdate;

export function listNeonOAuthProviders(project: ProjectRecord) {
  return { items: providersOf(project).map(neonView), is_paginated: false as const };
}

type ProviderFields = Omit<AdminOAuthProviderUpdate, "id">;

/** POST …/oauth-providers: a provider the project does not have yet (shared unless told). */
export function addNeonOAuthProvider(
  ctx: OpContext,
  project: ProjectRecord,
  body: { id: string } & Partial<ProviderFields>,
) {
  if (providersOf(project).some((p) => p.id === body.id)) throw refusal("oauthProviderAlreadyExists");
  const added = {
    id: body.id,
    type: body.type ?? "shared",
    ...(body.client_id !== undefined ? { client_id: body.client_id } : {}),
    ...(body.client_secret !== undefined ? { client_secret: body.client_secret } : {}),
  } as AdminOAuthProviderUpdate;
  return saveProviders(ctx, project, [...providersOf(project).map(asUpdate), added], body.id);
}

/** PATCH …/oauth-providers/<id>: the given fields over the provider's. */
export function updateNeonOAuthProvider(
  ctx: OpContext,
  project: ProjectRecord,
  id: string,
  body: Partial<ProviderFields>,
) {
  if (!providersOf(project).some((p) => p.id === id)) throw refusal("oauthProviderNotFound");
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const providers = providersOf(project).map((p) =>
    p.id === id ? ({ ...asUpdate(p), ...given } as AdminOAuthProviderUpdate) : asUpdate(p),
  );
  return saveProviders(ctx, project, providers, id);
}

export function removeNeonOAuthProvider(ctx: OpContext, project: ProjectRecord, id: string): void {
  if (!providersOf(project).some((p) => p.id === id)) throw refusal("oauthProviderNotFound");
  updateAdminProject(ctx, project, {
    config: {
      oauth_providers: providersOf(project)
        .filter((p) => p.id !== id)
        .map(asUpdate),
    },
  });
}

function saveProviders(ctx: OpContext, project: ProjectRecord, providers: AdminOAuthProviderUpdate[], id: string) {
  const saved = updateAdminProject(ctx, project, { config: { oauth_providers: providers } });
  return neonView(providersOf(saved).find((p) => p.id === id)!);
}

/** POST /integrations/neon/webhooks: an endpoint of the project's webhook application, and its signing secret. */
export function addNeonWebhook(
  ctx: OpContext,
  projectId: string,
  body: { url: string; description?: string | undefined },
) {
  const endpoint = createEndpoint(ctx, projectApp(ctx, projectId), {
    url: body.url,
    ...(body.description !== undefined ? { description: body.description } : {}),
  });
  return { secret: endpoint.secret };
}
