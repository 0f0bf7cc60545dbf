import type { AccessTokenClaims } from "../contract/areas/sessions.ts";
import { constants } from "../contract/headers.ts";
import { isKnownErrorOfType } from "../errors/known-error.ts";
import type { Clock } from "../runtime/clock.ts";
import type { UserTokenSource } from "../transport/transport.ts";
import { decodeAccessToken, isUsableTokenString, remainingMillis } from "./access-token.ts";
import type { TokenPair, TokenStore } from "./token-store.ts";

/**
 * A user session over a token store (spec §4, "Session"): fresh access tokens on demand, one refresh at a time,
 * and the invalid/expired transitions. The store stays the single source of truth.
 */

/** Exchanges a refresh token for a new access token (session/token-endpoint.ts); throws known errors. */
export type Refresher = (refreshToken: string) => Promise<{ accessToken: string; refreshToken?: string | null }>;

export interface GetAccessTokenOptions {
  /** The token must stay valid at least this long (default 20 000 ms, spec §9); must be under 60 000 ms. */
  minRemainingMillis?: number;
}

export class InvalidRefreshedTokenError extends Error {
  override readonly name = "InvalidRefreshedTokenError";
  constructor() {
    super(
      "The access token returned by the token refresh is invalid (missing or malformed claims); the backend is returning an invalid token.",
    );
  }
}

export class Session implements UserTokenSource {
  private inflightRefresh: Promise<string | null> | null = null;

  constructor(
    private readonly store: TokenStore,
    private readonly refresher: Refresher,
    private readonly clock: Clock,
  ) {}

  /** The stored tokens; an access token that does not decode to valid claims is dropped (protocol.md §4.1). */
  getTokens(): TokenPair {
    const { accessToken, refreshToken } = this.store.get();
    return {
      accessToken: decodeAccessToken(accessToken) ? accessToken : null,
      refreshToken: isUsableTokenString(refreshToken) ? refreshToken : null,
    };
  }

  getRefreshToken(): string | null {
    return this.getTokens().refreshToken;
  }

  /** The current access token's claims (not refreshed, possibly expired). */
  getAccessTokenClaims(): AccessTokenClaims | null {
    return decodeAccessToken(this.store.get().accessToken)?.claims ?? null;
  }

  /** Tokens from a sign-in. The literal "undefined" is refused: it means a caller stringified a missing value. */
  setTokens(tokens: TokenPair): void {
    if (tokens.accessToken === "undefined" || tokens.refreshToken === "undefined") {
      throw new Error('A token must not be the literal string "undefined" (spec §5).');
    }
    this.store.set({
      accessToken: decodeAccessToken(tokens.accessToken) ? tokens.accessToken : null,
      refreshToken: isUsableTokenString(tokens.refreshToken) ? tokens.refreshToken : null,
    });
  }

  /**
   * An access token likely to stay valid for `minRemainingMillis`: the stored one, or a refreshed one when it is
   * missing or too close to expiry (spec §4). Null when the session has no way to get one.
   */
  async getAccessToken(options: GetAccessTokenOptions = {}): Promise<string | null> {
    const minRemaining = options.minRemainingMillis ?? constants.accessTokenFreshnessMillis;
    if (minRemaining >= constants.maxRequiredAccessTokenLifeMillis) {
      throw new Error(
        `Cannot require an access token to stay valid for ${minRemaining} ms: the required remaining life must be under ${constants.maxRequiredAccessTokenLifeMillis} ms (spec §5).`,
      );
    }
    const access = decodeAccessToken(this.store.get().accessToken);
    const now = this.clock.now();
    if (access && remainingMillis(access, now) >= minRemaining) return access.token;
    if (!this.getRefreshToken()) {
      // Nothing to refresh with (e.g. a request that carried only an access token): use it while it lasts.
      return access && remainingMillis(access, now) > 0 ? access.token : null;
    }
    return this.refresh();
  }

  /**
   * Fetches a new access token with the refresh token. Concurrent callers share one request (single flight). A
   * REFRESH_TOKEN_ERROR means the session is over: both tokens are cleared and null is returned (spec §4).
   */
  refresh(): Promise<string | null> {
    if (this.inflightRefresh) return this.inflightRefresh;
    const refreshToken = this.getRefreshToken();
    if (!refreshToken) return Promise.resolve(null);
    const run = async (): Promise<string | null> => {
      try {
        const result = await this.refresher(refreshToken);
        if (!decodeAccessToken(result.accessToken)) throw new InvalidRefreshedTokenError();
        // Another sign-in may have replaced the session meanwhile; never overwrite it with the old one's tokens.
        if (this.getRefreshToken() === refreshToken) {
          this.store.set({ accessToken: result.accessToken, refreshToken: result.refreshToken ?? refreshToken });
        }
        return result.accessToken;
      } catch (e) {
        if (isKnownErrorOfType(e, "REFRESH_TOKEN_ERROR")) {
          if (this.getRefreshToken() === refreshToken) this.markInvalid();
          return null;
        }
        throw e;
      }
    };
    const flight = run();
    this.inflightRefresh = flight;
    const land = () => {
      if (this.inflightRefresh === flight) this.inflightRefresh = null;
    };
    flight.then(land, land);
    return flight;
  }

  /** The server said this access token is invalid: forget it (if still current) so the next use refreshes. */
  markAccessTokenExpired(accessToken?: string): void {
    const { accessToken: current, refreshToken } = this.store.get();
    if (accessToken === undefined || current === accessToken) this.store.set({ accessToken: null, refreshToken });
  }

  /** The session is over (sign-out, user deleted, refresh refused): both tokens are cleared. */
  markInvalid(): void {
    this.store.set({ accessToken: null, refreshToken: null });
  }
}
