import { UserButton, pageUrl, useStackApp, useUser } from "@authsim/react";
import type { HostedConfig } from "./hosted-config.ts";
import "./hosted.css";

/**
 * The hosted home page (afterSignIn, afterSignUp and afterSignOut land here): a bar with the project and the user
 * button, who is signed in, and links to the handler pages, so a person can try every flow of the project from one
 * place. It names the project (the pages serve whichever one `?project_id=` picked) and leads back to the dashboard,
 * on the emulator's own name (config.baseUrl): a project's own address serves no dashboard.
 */
export function HomePage({ config }: { config: HostedConfig }) {
  const app = useStackApp();
  const user = useUser();
  return (
    <>
      <header className="hosted-bar">
        <div className="hosted-brand">
          <strong data-testid="project-name">{config.projectName}</strong>
          <p className="hosted-project">
            Project <code data-testid="project-id">{config.projectId}</code> ·{" "}
            <a href={new URL("/#projects", config.baseUrl).href}>Dashboard</a>
          </p>
        </div>
        <UserButton />
      </header>
      <main className="hosted-home">
        <h1>Hosted sign-in</h1>
        {user ? (
          <>
            <p data-testid="whoami">Signed in as {user.displayName ?? user.primaryEmail ?? user.id}</p>
            <dl>
              <dt>Email</dt>
              <dd>{user.primaryEmail ?? "none"}</dd>
              <dt>User id</dt>
              <dd>
                <code>{user.id}</code>
              </dd>
            </dl>
            <nav className="hosted-actions" aria-label="Your account">
              <a className="hosted-primary" href={pageUrl(app, "accountSettings")}>
                Account settings
              </a>
              <a href={app.urls.signOut}>Sign out</a>
            </nav>
          </>
        ) : (
          <>
            <p data-testid="whoami">Not signed in</p>
            <nav className="hosted-actions" aria-label="Get started">
              <a className="hosted-primary" href={app.urls.signIn}>
                Sign in
              </a>
              <a href={app.urls.signUp}>Create an account</a>
            </nav>
          </>
        )}
        <p className="hosted-note">
          Pages of the authsim emulator for this project (another one: add <code>?project_id=</code> to any of these
          addresses, or use the links in the dashboard's projects). Emails land in the{" "}
          <a href="/#outbox">dashboard's outbox</a>.
        </p>
      </main>
    </>
  );
}
