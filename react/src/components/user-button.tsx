import { useEffect, useId, useRef, useState } from "react";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { useUser } from "../hooks/use-user.ts";
import { pageUrl } from "../handler/page-urls.ts";
import { userButtonCss } from "./user-button-styles.ts";

/** Up to two initials of a name or an address (Ada Lovelace → AL, grace@… → G). */
function initials(text: string): string {
  return text
    .split(/[\s@._-]+/)
    .filter((w) => w.length > 0)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}

/**
 * The signed-in user's avatar and name with a menu (who is signed in, account settings, sign out); sign-in and sign-up
 * links when signed out. The menu closes on a click elsewhere and on Escape, as a menu does.
 */
export function UserButton() {
  const app = useStackApp();
  const user = useUser();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onClick = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    document.addEventListener("mousedown", onClick);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onClick);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  if (!user) {
    return (
      <nav className="authsim-user-button" aria-label="Account">
        <style>{userButtonCss}</style>
        <a href={app.urls.signIn}>Sign in</a>
        <a href={app.urls.signUp} className="authsim-user-button-primary">
          Sign up
        </a>
      </nav>
    );
  }
  const name = user.displayName ?? user.primaryEmail ?? "Account";
  return (
    <div className="authsim-user-button" ref={root}>
      <style>{userButtonCss}</style>
      <button
        type="button"
        aria-label={name}
        aria-expanded={open}
        aria-controls={menuId}
        aria-haspopup="true"
        onClick={() => setOpen(!open)}
      >
        <span className="authsim-avatar" aria-hidden="true">
          {initials(name)}
        </span>
        <span className="authsim-user-button-name">{name}</span>
      </button>
      {open ? (
        <div className="authsim-user-menu" id={menuId}>
          <div className="authsim-user-menu-who">
            <strong>{name}</strong>
            {user.primaryEmail && user.displayName ? <span className="authsim-muted">{user.primaryEmail}</span> : null}
          </div>
          <ul aria-label="Account menu">
            <li>
              <a href={pageUrl(app, "accountSettings")}>Account settings</a>
            </li>
            <li>
              <a href={app.urls.signOut}>Sign out</a>
            </li>
          </ul>
        </div>
      ) : null}
    </div>
  );
}
