import { randomBase32, type RandomSource } from "@authsim/sdk/runtime";
import type { HeldOAuthTokens } from "../../domain/ops/oauth/held-oauth-tokens.ts";

/**
 * The mock OAuth server's tokens (emulator/mock-oauth/server.ts), and the ones the emulator holds as the relying party.
 *
 * Two sides, kept apart:
 * - the identity provider's side: grants (one per consent), the access tokens and the refresh token each grant issued,
 *   revocations, and an error a test asked the next refresh to fail with;
 * - the relying party's side (the emulator as the real service is one): the tokens it received for a connected
 *   account, keyed like the account's grant record (project, provider, provider account id).
 *
 * Everything is in memory, by the provider's clock and random source. Like a real identity provider's state it is not
 * part of the emulator's store: snapshots, resets and rolled-back requests leave it as it is.
 */

/** Access tokens live an hour; refresh tokens two weeks (common identity-provider defaults). */
export const MOCK_ACCESS_TOKEN_MILLIS = 60 * 60 * 1000;
export const MOCK_REFRESH_TOKEN_MILLIS = 14 * 24 * 60 * 60 * 1000;

/** The refresh errors a test may ask for (POST /simulate-refresh-error), as OAuth error codes with a description. */
export const simulatedRefreshErrors: Readonly<Record<string, string>> = {
  invalid_grant: "The refresh token is no longer valid.",
  access_denied: "The account holder withdrew access.",
  consent_required: "The account holder must consent again.",
  invalid_token: "The token is not valid.",
  unauthorized_client: "This client may not refresh tokens.",
};

export interface MockGrant {
  id: string;
  /** The client: the OAuth provider id (github, spotify, …). */
  clientId: string;
  /** The account id at the identity provider (what the sign-in form named). */
  sub: string;
  scopes: string[];
  revoked: boolean;
  /** Answered by the next refresh of this grant, then forgotten. */
  nextRefreshError: string | null;
}

interface IssuedAccessToken {
  grantId: string;
  expiresAtMillis: number;
  revoked: boolean;
}

interface IssuedRefreshToken {
  grantId: string;
  expiresAtMillis: number;
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  expiresAtMillis: number;
  scopes: string[];
}

export type RefreshAnswer =
  | { ok: true; accessToken: string; expiresAtMillis: number; scopes: string[] }
  | { ok: false; error: string; description: string };

/** The tokens the relying party holds for one connected account; `refreshToken` is null once a refresh failed. */
interface HeldTokens {
  accessTokens: { token: string; expiresAtMillis: number; scopes: string[] }[];
  refreshToken: string | null;
  scopes: string[];
}

export class MockOAuthTokens implements HeldOAuthTokens {
  private readonly grants = new Map<string, MockGrant>();
  private readonly accessTokens = new Map<string, IssuedAccessToken>();
  private readonly refreshTokens = new Map<string, IssuedRefreshToken>();
  private readonly held = new Map<string, HeldTokens>();

  constructor(
    private readonly now: () => number,
    private readonly random: RandomSource,
  ) {}

  // ---- the identity provider's side ----

  /** A consent: a new grant with its first access token and its refresh token. */
  issue(clientId: string, sub: string, scopes: readonly string[]): TokenSet {
    const grant: MockGrant = {
      id: randomBase32(this.random, 120),
      clientId,
      sub,
      scopes: [...scopes],
      revoked: false,
      nextRefreshError: null,
    };
    this.grants.set(grant.id, grant);
    const { token, expiresAtMillis } = this.newAccessToken(grant);
    const refreshToken = `mock_rt_${randomBase32(this.random, 200)}`;
    this.refreshTokens.set(refreshToken, {
      grantId: grant.id,
      expiresAtMillis: this.now() + MOCK_REFRESH_TOKEN_MILLIS,
    });
    return { accessToken: token, refreshToken, expiresAtMillis, scopes: [...grant.scopes] };
  }

  private newAccessToken(grant: MockGrant): { token: string; expiresAtMillis: number } {
    const token = `mock_at_${randomBase32(this.random, 200)}`;
    const expiresAtMillis = this.now() + MOCK_ACCESS_TOKEN_MILLIS;
    this.accessTokens.set(token, { grantId: grant.id, expiresAtMillis, revoked: false });
    return { token, expiresAtMillis };
  }

  /** The grant behind a live access token (not revoked, not expired, its grant not revoked), or null. */
  grantOfAccessToken(token: string): MockGrant | null {
    const issued = this.accessTokens.get(token);
    if (!issued || issued.revoked || issued.expiresAtMillis <= this.now()) return null;
    const grant = this.grants.get(issued.grantId);
    return grant && !grant.revoked ? grant : null;
  }

  /** The grant of an access token, live or not (revoking or arming an error works on a revoked access token too). */
  grantOfAnyAccessToken(token: string): MockGrant | null {
    const issued = this.accessTokens.get(token);
    return issued ? (this.grants.get(issued.grantId) ?? null) : null;
  }

  /** The refresh_token grant: a new access token, or the OAuth error a real provider would answer. */
  refresh(refreshToken: string, clientId?: string): RefreshAnswer {
    const issued = this.refreshTokens.get(refreshToken);
    const grant = issued ? this.grants.get(issued.grantId) : undefined;
    if (
      !issued ||
      !grant ||
      grant.revoked ||
      issued.expiresAtMillis <= this.now() ||
      (clientId !== undefined && grant.clientId !== clientId)
    ) {
      return { ok: false, error: "invalid_grant", description: "The refresh token is invalid, expired or revoked." };
    }
    if (grant.nextRefreshError !== null) {
      const error = grant.nextRefreshError;
      grant.nextRefreshError = null;
      return { ok: false, error, description: simulatedRefreshErrors[error] ?? error };
    }
    const { token, expiresAtMillis } = this.newAccessToken(grant);
    return { ok: true, accessToken: token, expiresAtMillis, scopes: [...grant.scopes] };
  }

  revokeAccessToken(token: string): void {
    const issued = this.accessTokens.get(token);
    if (issued) issued.revoked = true;
  }

  /** Revokes a grant: every token it issued, the refresh token included, stops working. */
  revokeGrant(grant: MockGrant): void {
    grant.revoked = true;
  }

  // ---- the relying party's side ----

  /** What the emulator received when it redeemed the code of a sign-in (or link) for this account. */
  hold(key: string, tokens: TokenSet): void {
    this.held.set(key, {
      accessTokens: [{ token: tokens.accessToken, expiresAtMillis: tokens.expiresAtMillis, scopes: tokens.scopes }],
      refreshToken: tokens.refreshToken,
      scopes: tokens.scopes,
    });
  }

  holds(key: string): boolean {
    return this.held.has(key);
  }

  /**
   * An access token with these scopes for the account, as the real service finds one: a held token that still works
   * at the provider (and lives at least five more minutes), else a refresh. A failed refresh drops the refresh token.
   * Null when the account has no usable token with the scopes.
   */
  accessTokenFor(key: string, scopes: readonly string[]): string | null {
    const held = this.held.get(key);
    if (!held || !scopes.every((s) => held.scopes.includes(s))) return null;
    const soon = this.now() + 5 * 60 * 1000;
    held.accessTokens = held.accessTokens.filter(
      (t) => t.expiresAtMillis > soon && this.grantOfAccessToken(t.token) !== null,
    );
    const usable = held.accessTokens[0];
    if (usable) return usable.token;
    if (held.refreshToken === null) return null;
    const answer = this.refresh(held.refreshToken);
    if (!answer.ok) {
      held.refreshToken = null;
      return null;
    }
    held.accessTokens.push({
      token: answer.accessToken,
      expiresAtMillis: answer.expiresAtMillis,
      scopes: answer.scopes,
    });
    return answer.accessToken;
  }

  /** Forgets everything (a fresh identity provider). */
  clear(): void {
    this.grants.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.held.clear();
  }
}
