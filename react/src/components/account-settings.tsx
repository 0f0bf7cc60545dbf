import { Suspense, useEffect, useState, type ReactNode } from "react";
import type { CurrentUser, Project } from "@authsim/sdk";
import { useUser } from "../hooks/use-user.ts";
import { usePageUrl } from "../navigation/page-location.ts";
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

/** One entry of the side menu: what it is called, its address fragment, and what it shows. */
interface Page {
  id: string;
  label: string;
  render(user: CurrentUser): ReactNode;
}

/** The pages the project enables, in the menu's order (spec §3 project config, §6). */
function pagesFor(project: Project): Page[] {
  const pages: (Page | null)[] = [
    { id: "profile", label: "Profile", render: (user) => <ProfileSection key={user.id} user={user} /> },
    {
      id: "sign-in",
      label: "Emails & sign-in",
      render: (user) => (
        <>
          <EmailsSection user={user} />
          <PasswordSection user={user} />
          <MfaSection user={user} />
          {project.config.passkeyEnabled ? <PasskeysSection user={user} /> : null}
          <ConnectedAccountsSection user={user} />
        </>
      ),
    },
    { id: "notifications", label: "Notifications", render: () => <NotificationsSection /> },
    { id: "sessions", label: "Active sessions", render: (user) => <SessionsSection user={user} /> },
    project.config.allowUserApiKeys
      ? { id: "api-keys", label: "API keys", render: (user) => <ApiKeysSection user={user} /> }
      : null,
    { id: "teams", label: "Teams", render: (user) => <TeamsSection user={user} /> },
    { id: "account", label: "Sign out & delete", render: (user) => <DangerSection user={user} /> },
  ];
  return pages.filter((p): p is Page => p !== null);
}

/**
 * Account settings for the signed-in user (a user is required: without one, the page redirects to sign-in, spec §2),
 * as the published kit lays them out: a side menu of pages (profile; emails, password, two-factor, passkeys and
 * connected accounts; notifications; sessions; API keys; teams; sign-out and deletion), one shown at a time. The
 * address fragment names the page (`#teams`), so a link or a reload opens it; on a narrow screen the menu wraps above.
 */
export function AccountSettings({ title = "Account settings" }: { title?: string }) {
  const user = useUser({ or: "redirect" });
  const project = useProject();
  const pages = pagesFor(project);
  const fragment = usePageUrl().hash.slice(1);
  const [chosen, setChosen] = useState(() => (pages.some((p) => p.id === fragment) ? fragment : pages[0]!.id));
  const current = pages.find((p) => p.id === chosen) ?? pages[0]!;
  const ids = pages.map((p) => p.id).join(" ");
  useEffect(() => {
    // A link to another page of the settings (#teams) changes only the fragment: no new page load, so follow it here.
    if (typeof window === "undefined") return;
    const follow = () => {
      const id = window.location.hash.slice(1);
      if (ids.split(" ").includes(id)) setChosen(id);
    };
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, [ids]);
  const choose = (id: string) => {
    setChosen(id);
    // The fragment follows, so a reload or a copied address opens the same page (no navigation, no history entry).
    if (typeof window !== "undefined" && window.history)
      window.history.replaceState(window.history.state, "", `#${id}`);
  };
  return (
    <section className="authsim-page authsim-settings" aria-labelledby="authsim-page-title">
      <h1 id="authsim-page-title">{title}</h1>
      <div className="authsim-settings-layout">
        <nav className="authsim-settings-menu" aria-label="Account settings pages">
          {pages.map((page) => (
            <button
              key={page.id}
              type="button"
              aria-current={page.id === current.id ? "page" : undefined}
              onClick={() => choose(page.id)}
            >
              {page.label}
            </button>
          ))}
        </nav>
        {/* Its own boundary: a page loading its data leaves the menu and the title in place. */}
        <div className="authsim-settings-content" key={current.id}>
          <Suspense
            fallback={
              <p role="status" className="authsim-status" data-authsim-loading="">
                Loading…
              </p>
            }
          >
            {current.render(user)}
          </Suspense>
        </div>
      </div>
    </section>
  );
}
