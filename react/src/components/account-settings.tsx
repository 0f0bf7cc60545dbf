import { useUser } from "../hooks/use-user.ts";
import { AuthPage } from "./form-parts.tsx";
import { DangerSection } from "./danger-section.tsx";
import { PasswordSection } from "./password-section.tsx";
import { ProfileSection } from "./profile-section.tsx";
import { ApiKeysSection } from "./api-keys-section.tsx";
import { EmailsSection } from "./emails-section.tsx";
import { SessionsSection } from "./sessions-section.tsx";
import { TeamsSection } from "./teams-section.tsx";
import { MfaSection } from "./mfa-section.tsx";
import { PasskeysSection } from "./passkeys-section.tsx";
import { ConnectedAccountsSection } from "./connected-accounts-section.tsx";
import { NotificationsSection } from "./notifications-section.tsx";
import { useProject } from "../hooks/use-project.ts";

/**
 * Account settings for the signed-in user (a user is required: without one, the page redirects to sign-in, spec §2).
 * Sections follow what the SDK can do and the project enables (spec §3 project config, §6): profile, emails, password,
 * two-factor authentication, passkeys, connected accounts, notification categories, sessions, API keys, teams, and
 * sign-out and deletion.
 */
export function AccountSettings({ title = "Account settings" }: { title?: string }) {
  const user = useUser({ or: "redirect" });
  const project = useProject();
  return (
    <AuthPage title={title}>
      <ProfileSection key={user.id} user={user} />
      <EmailsSection user={user} />
      <PasswordSection user={user} />
      <MfaSection user={user} />
      {project.config.passkeyEnabled ? <PasskeysSection user={user} /> : null}
      <ConnectedAccountsSection user={user} />
      <NotificationsSection />
      <SessionsSection user={user} />
      {project.config.allowUserApiKeys ? <ApiKeysSection user={user} /> : null}
      <TeamsSection user={user} />
      <DangerSection user={user} />
    </AuthPage>
  );
}
