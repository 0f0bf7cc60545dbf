/**
 * Handler URLs (spec §2, sdk-surface.md §5): only the keys the SDK core needs so far. A string `handler` replaces the
 * `/handler` base of every page path; redirect targets default to home.
 */
export interface HandlerUrlOptions {
  handler?: string;
  signIn?: string;
  signUp?: string;
  signOut?: string;
  emailVerification?: string;
  /** Where password-reset emails link to (spec §2 "password-reset"). */
  passwordReset?: string;
  /** Where magic-link emails link to (spec §2 "magic-link-callback"). */
  magicLinkCallback?: string;
  /** Where team invitation emails link to (spec §2 "team invitation callback"). */
  teamInvitation?: string;
  /** Where the provider sends the browser back from OAuth (spec §2 "oauth-callback"; code and state in the query). */
  oauthCallback?: string;
  /** Where sign-in continues when MFA is required (spec §2 "mfa", §4 "MFA"). */
  mfa?: string;
  /** Where OAuth errors are shown (spec §2 "error"). */
  error?: string;
  /** The page a CLI login sends the person to (spec §2 "cli-auth-confirm", with login_code). */
  cliAuthConfirm?: string;
  home?: string;
  afterSignIn?: string;
  afterSignUp?: string;
  afterSignOut?: string;
}

export type ResolvedHandlerUrls = Required<HandlerUrlOptions>;

export function resolveHandlerUrls(options: HandlerUrlOptions = {}): ResolvedHandlerUrls {
  const handler = (options.handler ?? "/handler").replace(/\/+$/, "");
  const home = options.home ?? "/";
  const afterSignIn = options.afterSignIn ?? home;
  return {
    handler,
    signIn: options.signIn ?? `${handler}/sign-in`,
    signUp: options.signUp ?? `${handler}/sign-up`,
    signOut: options.signOut ?? `${handler}/sign-out`,
    emailVerification: options.emailVerification ?? `${handler}/email-verification`,
    passwordReset: options.passwordReset ?? `${handler}/password-reset`,
    magicLinkCallback: options.magicLinkCallback ?? `${handler}/magic-link-callback`,
    teamInvitation: options.teamInvitation ?? `${handler}/team-invitation`,
    oauthCallback: options.oauthCallback ?? `${handler}/oauth-callback`,
    mfa: options.mfa ?? `${handler}/mfa`,
    error: options.error ?? `${handler}/error`,
    cliAuthConfirm: options.cliAuthConfirm ?? `${handler}/cli-auth-confirm`,
    home,
    afterSignIn,
    afterSignUp: options.afterSignUp ?? afterSignIn,
    afterSignOut: options.afterSignOut ?? home,
  };
}
