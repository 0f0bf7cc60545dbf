/**
 * Records of strong authentication (issue 5): OAuth provider links and the tokens the mock identity provider granted,
 * the state of OAuth flows in progress, authorization codes, and passkeys. Plain JSON values, replaced and never
 * mutated (see records.ts). MFA attempts and CLI logins are verification codes (records.ts, domain/ops/sign-in/verification-codes.ts).
 */

/** A user's link to a provider account (protocol.md §5.10): sign-in and/or connected-account use. */
export interface OAuthAccountRecord {
  id: string;
  projectId: string;
  userId: string;
  /** The project's provider (e.g. "github"); also the link's `type`. */
  providerConfigId: string;
  /** The account's id at the identity provider. */
  providerAccountId: string;
  email: string | null;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
  createdAtMillis: number;
}

/** What the identity provider granted an account: the scopes its tokens may carry (connected accounts). */
export interface OAuthGrantRecord {
  projectId: string;
  providerConfigId: string;
  providerAccountId: string;
  scopes: string[];
  grantedAtMillis: number;
}

/** The identity the mock identity provider's page returned for a flow (emulator/control/oauth-idp-page.ts). */
export interface MockIdentity {
  accountId: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  scopes: string[];
}

/**
 * An OAuth flow between authorize and callback, keyed by its inner state (protocol.md §7.5 "outer info"): what the
 * client asked for, and, once the person chose at the identity provider, the identity behind the inner code.
 */
export interface OAuthFlowRecord {
  innerState: string;
  projectId: string;
  providerConfigId: string;
  publishableClientKey: string;
  redirectUri: string;
  /** The client's (outer) state, returned with the authorization code. */
  state: string;
  codeChallenge: string;
  /** "S256" or "plain" as the client asked; absent in snapshots older than the field, which meant S256. */
  codeChallengeMethod?: string;
  type: "authenticate" | "link";
  /** The signed-in user a link (or an anonymous upgrade) is for. */
  userId: string | null;
  providerScope: string | null;
  errorRedirectUrl: string | null;
  afterCallbackRedirectUrl: string | null;
  /**
   * Started in JSON mode (`response_mode=json`, the SDKs' way): no inner-state cookie was set, so the callback does not
   * ask for one (PKCE protects the flow). Absent in older snapshots: redirect mode.
   */
  jsonMode?: boolean;
  createdAtMillis: number;
  expiresAtMillis: number;
  /** Set by the identity provider's page: the code it hands the callback, and who signed in. */
  innerCode: string | null;
  identity: MockIdentity | null;
}

/** An authorization code for the client (RFC 6749 §4.1.2), exchanged at the token endpoint with its PKCE verifier. */
export interface OAuthAuthorizationCodeRecord {
  code: string;
  projectId: string;
  userId: string;
  redirectUri: string;
  codeChallenge: string;
  /** As on the flow it came from. */
  codeChallengeMethod?: string;
  isNewUser: boolean;
  afterCallbackRedirectUrl: string | null;
  expiresAtMillis: number;
  /**
   * A cross-domain handoff's code (domain/ops/oauth/oauth-cross-domain.ts) carries the session it hands over: its exchange answers
   * that session's refresh token instead of opening a new session.
   */
  sessionId?: string;
}

/** A registered passkey (protocol.md §7.6): the credential's public key (COSE, base64url) and signature counter. */
export interface PasskeyRecord {
  /** The credential id (base64url); also the record's key. */
  credentialId: string;
  projectId: string;
  userId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  createdAtMillis: number;
}
