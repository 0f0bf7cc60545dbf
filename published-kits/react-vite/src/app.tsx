import { StackHandler, StackProvider, StackTheme, UserButton, useStackApp, useUser } from "@stackframe/react";
import { Suspense } from "react";
import { BrowserRouter, Link, Route, Routes, useLocation } from "react-router-dom";
import { stackClientApp } from "./stack.ts";

function HandlerRoutes() {
  const location = useLocation();
  return <StackHandler app={stackClientApp} location={location.pathname} fullPage />;
}

function Home() {
  const user = useUser();
  const app = useStackApp();
  return (
    <main>
      <h1>Published kit home</h1>
      <p data-testid="whoami">{user ? `Signed in as ${user.primaryEmail ?? user.id}` : "Not signed in"}</p>
      {user && <p data-testid="display-name">Display name: {user.displayName ?? "(none)"}</p>}
      <nav>
        <Link to="/protected">Protected page</Link> <Link to="/handler/account-settings">Account settings</Link>{" "}
        {user ? <Link to="/handler/sign-out">Sign out</Link> : <Link to="/handler/sign-in">Sign in</Link>}
      </nav>
      {/* The kit's own sign-out, which also works in hosted mode, where /handler/* are the hosted pages. */}
      {user && (
        <button type="button" onClick={() => void app.signOut({ redirectUrl: "/" })}>
          Sign out
        </button>
      )}
      <UserButton />
    </main>
  );
}

function Protected() {
  // The kit sends a visitor who is not signed in to its sign-in page, and back here afterwards.
  const user = useUser({ or: "redirect" });
  return (
    <main>
      <h1>Protected page</h1>
      <p data-testid="protected">Only for {user.primaryEmail}</p>
    </main>
  );
}

export function App() {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <BrowserRouter>
        <StackProvider app={stackClientApp}>
          <StackTheme>
            <Routes>
              <Route path="/handler/*" element={<HandlerRoutes />} />
              <Route path="/protected" element={<Protected />} />
              <Route path="/" element={<Home />} />
            </Routes>
          </StackTheme>
        </StackProvider>
      </BrowserRouter>
    </Suspense>
  );
}
