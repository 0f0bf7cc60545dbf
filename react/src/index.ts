/** @authsim/react: a provider over a client app, hooks reading the SDK's caches (spec §9), and the handler pages (spec §2). */
export { StackProvider, type StackProviderProps } from "./provider/stack-provider.tsx";
export type { TrustedRedirects } from "./provider/stack-context.ts";
export { useStackApp } from "./hooks/use-stack-app.ts";
export { useUser, type UseUserOptions } from "./hooks/use-user.ts";
export { useProject } from "./hooks/use-project.ts";
export { useCachedValue } from "./hooks/use-cached-value.ts";
export {
  useTeams,
  useTeam,
  useContactChannels,
  useApiKeys,
  usePermissions,
  useItem,
  useNotificationCategories,
  useOAuthProviders,
  type TeamOf,
  type ContactChannelOf,
  type UserApiKeyOf,
  type ItemOf,
  type NotificationCategoryOf,
  type OAuthProviderOf,
} from "./hooks/use-user-data.ts";

export { Handler, type HandlerProps } from "./handler/handler.tsx";
export { pageUrl, pageSegments, type PageKey } from "./handler/page-urls.ts";
export { SignIn, type SignInProps } from "./components/sign-in.tsx";
export { SignUp, type SignUpProps } from "./components/sign-up.tsx";
export { UserButton } from "./components/user-button.tsx";
export { AccountSettings } from "./components/account-settings.tsx";
export { SelectedTeamSwitcher, type SelectedTeamSwitcherProps } from "./components/selected-team-switcher.tsx";
export { OAuthButtons } from "./components/oauth-buttons.tsx";
export { PasskeySignIn } from "./components/passkey-sign-in.tsx";
export { MagicLinkSignIn } from "./components/magic-link-sign-in.tsx";
export { MfaSection } from "./components/mfa-section.tsx";
export { PasskeysSection } from "./components/passkeys-section.tsx";
export { NotificationsSection } from "./components/notifications-section.tsx";
export { ConnectedAccountsSection } from "./components/connected-accounts-section.tsx";
export { SignOutPage as SignOut } from "./pages/sign-out-page.tsx";
export { ForgotPasswordPage as ForgotPassword } from "./pages/forgot-password-page.tsx";
export { PasswordResetPage as PasswordReset } from "./pages/password-reset-page.tsx";
export { EmailVerificationPage as EmailVerification } from "./pages/email-verification-page.tsx";
export { MagicLinkCallbackPage as MagicLinkCallback } from "./pages/magic-link-callback-page.tsx";
export { ErrorPage } from "./pages/error-page.tsx";
export { OAuthCallbackPage as OAuthCallback } from "./pages/oauth-callback-page.tsx";
export { MfaPage as Mfa } from "./pages/mfa-page.tsx";
export { TeamInvitationPage as TeamInvitation } from "./pages/team-invitation-page.tsx";
export { CliAuthConfirmPage as CliAuthConfirm } from "./pages/cli-auth-confirm-page.tsx";
export { ErrorMessage, errorText } from "./errors/error-message.tsx";
export {
  RETURN_TO_PARAM,
  UntrustedRedirectError,
  isTrustedTarget,
  readReturnTo,
  withReturnTo,
} from "./navigation/return-to.ts";
