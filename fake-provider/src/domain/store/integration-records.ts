/**
 * The integrations' own state (domain/ops/integrations/): which projects an integration client provisioned, and its
 * OpenID Connect identity provider's interactions, codes, tokens and accounts.
 */

/** A project an integration provisioned and still may transfer (removed once a user takes it over). */
export interface ProvisionedProjectRecord {
  projectId: string;
  clientId: string;
  /** Neon's databases by branch: the id the connection string is kept under (the strings themselves are not used). */
  connectionStrings: Record<string, string>;
}

/** What the identity provider hands out for an account: the project's admin key as an "api_key" token. */
export interface IdpResult {
  access_token: string;
  token_type: "api_key";
  project_id: string;
}

/** The identity provider's records, one table keyed `<kind>\u0000<id>`; `family` is neon or custom. */
export type IdpRecord =
  | {
      kind: "interaction";
      id: string;
      family: string;
      clientId: string;
      redirectUri: string;
      state: string | null;
      codeChallenge: string;
      /** The values of its session cookies (`_interaction`, `_interaction_resume`), checked on each step. */
      cookie: string;
      resumeCookie: string;
      accountId: string | null;
      expiresAtMillis: number;
    }
  /** The dashboard's confirmation (internal/confirm): ends the interaction with this result. */
  | { kind: "wrapper-code"; id: string; family: string; interactionUid: string; result: IdpResult }
  | { kind: "account"; id: string; family: string; result: IdpResult }
  | {
      kind: "code";
      id: string;
      family: string;
      clientId: string;
      redirectUri: string;
      codeChallenge: string;
      accountId: string;
      expiresAtMillis: number;
    }
  | { kind: "access-token"; id: string; family: string; accountId: string; expiresAtMillis: number };
