import { DEFAULT_BRANCH_ID, PUBLIC_CLIENT_SENTINEL } from "@authsim/sdk/contract";
import { isTrustedRedirectUrl } from "@authsim/sdk/urls";
import { findKeySet } from "../auth/keys.ts";
import { knownError } from "../http/known-error.ts";
import type { ProjectRecord } from "../store/records.ts";
import { assertTrustedCallback } from "./callback-urls.ts";
import type { OpContext } from "./context.ts";

/**
 * The OAuth client of the authorize and token endpoints is the project (protocol.md §4.4): client_id = project id
 * (optionally "#branch"), client_secret = a publishable key or the public-client sentinel.
 */

/**
 * The project named by client_id, with its secret checked. `badSecret` is what a wrong key answers: the token endpoint
 * says INVALID_OAUTH_CLIENT_ID_OR_SECRET, authorize INVALID_PUBLISHABLE_CLIENT_KEY (upstream's checkApiKeySet).
 */
export function oauthClientProject(
  ctx: OpContext,
  clientId: string,
  clientSecret: string | undefined,
  badSecret: "INVALID_OAUTH_CLIENT_ID_OR_SECRET" | "INVALID_PUBLISHABLE_CLIENT_KEY",
): ProjectRecord {
  const [projectId, branchId = DEFAULT_BRANCH_ID] = clientId.split("#");
  const project = projectId ? ctx.tables.projects.get(projectId) : undefined;
  if (!project || branchId !== DEFAULT_BRANCH_ID) throw knownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: clientId });
  const secret = clientSecret === PUBLIC_CLIENT_SENTINEL || clientSecret === "" ? undefined : clientSecret;
  if (secret === undefined) {
    if (project.config.require_publishable_client_key) throw knownError("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: project.id });
  } else if (!findKeySet(ctx.tables, project.id, "publishable", secret, ctx.now)) {
    throw badSecret === "INVALID_OAUTH_CLIENT_ID_OR_SECRET"
      ? knownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: clientId })
      : knownError("INVALID_PUBLISHABLE_CLIENT_KEY", { project_id: project.id });
  }
  return project;
}

/** spec §5: every URL the provider will send the browser to is on a trusted domain (or localhost when allowed). */
export function isTrustedFor(project: ProjectRecord, url: string): boolean {
  return isTrustedRedirectUrl(url, { allowLocalhost: project.config.allow_localhost, domains: project.config.domains });
}

/** The redirect URLs of an OAuth flow, through the one check every redirect URL gets (ops/callback-urls.ts). */
export function assertTrustedRedirects(project: ProjectRecord, urls: readonly (string | undefined | null)[]): void {
  for (const url of urls) if (url) assertTrustedCallback(project, url);
}
