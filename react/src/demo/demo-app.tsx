import { Suspense } from "react";
import { Handler, UserButton, useStackApp, useUser } from "../index.ts";

/**
 * The demo app the browser tests drive: a home page that shows who is signed in, a page that requires a user, and the
 * handler pages under /handler. Routing is by path with full page loads (redirectMethod "window").
 */
function Home() {
  const user = useUser();
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "2rem auto" }}>
      <header style={{ display: "flex", justifyContent: "space-between", alignItems: "center" }}>
        <strong>authsim demo</strong>
        <UserButton />
      </header>
      <h1>Home</h1>
      <p data-testid="whoami">{user ? `Signed in as ${user.displayName ?? user.primaryEmail}` : "Not signed in"}</p>
      <p>
        <a href="/protected">A page for signed-in users</a>
      </p>
    </main>
  );
}

function Protected() {
  const user = useUser({ or: "redirect" });
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "2rem auto" }}>
      <h1>Protected</h1>
      <p data-testid="protected">Protected page for {user.displayName ?? user.primaryEmail}</p>
    </main>
  );
}

export function DemoApp({ path }: { path: string }) {
  const app = useStackApp();
  const inHandler = path === app.urls.handler || path.startsWith(`${app.urls.handler}/`);
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      {inHandler ? <Handler /> : path === "/protected" ? <Protected /> : <Home />}
    </Suspense>
  );
}
