import { DEFAULT_BRANCH_ID, PUBLIC_CLIENT_SENTINEL } from "@authsim/sdk/contract";
import { isTrustedRedirectUrl } from "@authsim/sdk/urls";
import { findKeySet } from "../../auth/keys.ts";
import { knownError } from "../../errors/known-error.ts";
import type { ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";

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
  if (!project || branchId !== DEFAULT_BRANCH_ID)
    throw knownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: clientId });
  const secret = clientSecret === PUBLIC_CLIENT_SENTINEL || clientSecret === "" ? undefined : clientSecret;
  if (secret === undefined) {
    if (project.config.require_publishable_client_key)
      throw knownError("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: project.id });
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

/**
 * The scheme of the native apps' SDK callbacks: only an installed app can answer such a URL, never a web page, so the
 * real service lets it through without a trusted domain.
 */
export const NATIVE_APP_CALLBACK_PROTOCOL = "stack-auth-mobile-oauth-url:";

function isNativeAppUrl(url: string): boolean {
  try {
    return new URL(url).protocol === NATIVE_APP_CALLBACK_PROTOCOL;
  } catch {
    return false;
  }
}

/** Where an OAuth flow may send the browser: a trusted domain (or localhost when allowed), or a native app. */
export function isAllowedOAuthRedirect(project: ProjectRecord, url: string): boolean {
  return isNativeAppUrl(url) || isTrustedFor(project, url);
}

/** REDIRECT_URL_NOT_WHITELISTED unless `url` is absent or isAllowedOAuthRedirect. */
export function assertAllowedOAuthRedirect(project: ProjectRecord, url: string | undefined | null): void {
  if (url && !isAllowedOAuthRedirect(project, url)) throw knownError("REDIRECT_URL_NOT_WHITELISTED");
}
