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
    home,
    afterSignIn,
    afterSignUp: options.afterSignUp ?? afterSignIn,
    afterSignOut: options.afterSignOut ?? home,
  };
}
