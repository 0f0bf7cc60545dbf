import Link from "next/link";
import { UserButton } from "@stackframe/stack";
import { stackServerApp } from "../stack/server";
import { SignOutButton } from "./sign-out-button";

// A server component: the user comes from the request's cookies (nextjs-cookie token store).
export default async function Home() {
  const user = await stackServerApp.getUser();
  return (
    <main>
      <h1>Published kit home</h1>
      <p data-testid="whoami">{user ? `Signed in as ${user.primaryEmail ?? user.id}` : "Not signed in"}</p>
      {user && <p data-testid="display-name">Display name: {user.displayName ?? "(none)"}</p>}
      <nav>
        <Link href="/protected">Protected page</Link> <Link href="/handler/account-settings">Account settings</Link>{" "}
        <Link href="/users">Users</Link>{" "}
        {user ? <Link href="/handler/sign-out">Sign out</Link> : <Link href="/handler/sign-in">Sign in</Link>}
      </nav>
      <SignOutButton />
      <UserButton />
    </main>
  );
}
