"use client";

import { useUser } from "@stackframe/stack";

export default function ProtectedClient() {
  // In the browser: the kit knows the page's URL, so the sign-in page it sends a visitor to brings them back here.
  const user = useUser({ or: "redirect" });
  return (
    <main>
      <h1>Protected page (client component)</h1>
      <p data-testid="protected">Only for {user.primaryEmail}</p>
    </main>
  );
}
