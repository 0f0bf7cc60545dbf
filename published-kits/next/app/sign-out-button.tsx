"use client";

import { useUser } from "@stackframe/stack";

/** The kit's own sign-out from the page (it also works in hosted mode, where /handler/* are the hosted pages). */
export function SignOutButton() {
  const user = useUser();
  if (!user) return null;
  return (
    <button type="button" onClick={() => void user.signOut({ redirectUrl: "/" })}>
      Sign out
    </button>
  );
}
