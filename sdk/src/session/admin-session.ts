import { constants } from "../contract/headers.ts";
import type { Clock } from "../runtime/clock.ts";
import type { AdminTokenSource } from "../transport/transport.ts";
import { isUsableTokenString, tokenExpiryMillis } from "./access-token.ts";

/**
 * A project-owner session (spec §6): an admin access token of an `internal`-project user, sent as
 * x-stack-admin-access-token. It is given, not refreshed by us: spec §5 says an admin session cannot be used for
 * token refresh or OAuth, so those are refused with a clear error.
 */

/** A fixed admin access token, or a function that returns a current one (e.g. from a dashboard session). */
export type AdminAccessTokenProvider = string | (() => Promise<string | null>);

export class AdminSessionUnsupportedError extends Error {
  override readonly name = "AdminSessionUnsupportedError";
  constructor(operation: string) {
    super(`An admin session (project-owner admin access token) cannot be used for ${operation} (spec §5).`);
  }
}

export class AdminSession implements AdminTokenSource {
  private cached: string | null = null;

  constructor(
    private readonly provider: AdminAccessTokenProvider,
    private readonly clock: Clock,
  ) {}

  async getAdminAccessToken(): Promise<string | null> {
    if (typeof this.provider === "string") return isUsableTokenString(this.provider) ? this.provider : null;
    if (this.cached && this.isFresh(this.cached)) return this.cached;
    const token = await this.provider();
    this.cached = isUsableTokenString(token) ? token : null;
    return this.cached;
  }

  private isFresh(token: string): boolean {
    const exp = tokenExpiryMillis(token);
    return exp === null || exp - this.clock.now() >= constants.accessTokenFreshnessMillis;
  }

  /** Forget the cached token so the provider is asked again (a fixed string cannot be replaced). */
  markAdminAccessTokenExpired(token: string): void {
    if (this.cached === token) this.cached = null;
  }

  /** The OAuth refresh grant is for user sessions only. */
  refresh(): never {
    throw new AdminSessionUnsupportedError("token refresh");
  }

  /** Called by flows that an admin session must not start (OAuth sign-in, linking). */
  refuse(operation: "token refresh" | "OAuth"): never {
    throw new AdminSessionUnsupportedError(operation);
  }
}
