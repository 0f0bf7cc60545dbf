/**
 * The OAuth tokens the emulator holds as the relying party of a connected account of a shared-keys provider: the real
 * service keeps the tokens it redeemed at sign-in and hands out one still valid, or refreshes. The mock OAuth server
 * (emulator/mock-oauth/tokens.ts) keeps them beside its own grants, since only it can tell whether a token still works;
 * the operations see only this.
 */
export interface HeldOAuthTokens {
  /** An access token with these scopes for the account (`heldKey`), refreshed if needed; null when there is none. */
  accessTokenFor(key: string, scopes: readonly string[]): string | null;
}

/** The account a held token belongs to: project, provider config and the provider's account id. */
export const heldKey = (projectId: string, providerId: string, providerAccountId: string): string =>
  `${projectId}\u0000${providerId}\u0000${providerAccountId}`;
