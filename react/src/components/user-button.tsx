import { useId, useState } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { useUser } from "../hooks/use-user.ts";
import { pageUrl } from "../handler/page-urls.ts";

/** The signed-in user's name with a menu (account settings, sign out); sign-in and sign-up links when signed out. */
export function UserButton() {
  const app = useStackApp();
  const user = useUser();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  if (!user) {
    return (
      <nav className="authsim-user-button" aria-label="Account">
        <a href={app.urls.signIn}>Sign in</a> <a href={app.urls.signUp}>Sign up</a>
      </nav>
    );
  }
  const name = user.displayName ?? user.primaryEmail ?? "Account";
  return (
    <div className="authsim-user-button">
      <button type="button" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen(!open)}>
        {name}
      </button>
      {open ? (
        <ul id={menuId} aria-label="Account menu">
          {user.primaryEmail && user.displayName ? <li className="authsim-muted">{user.primaryEmail}</li> : null}
          <li>
            <a href={pageUrl(app, "accountSettings")}>Account settings</a>
          </li>
          <li>
            <a href={app.urls.signOut}>Sign out</a>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
