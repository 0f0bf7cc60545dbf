import { stackServerApp } from "../../stack/server";

export default async function Protected() {
  // On the server: a visitor who is not signed in is redirected to the kit's sign-in page, and back here after it.
  const user = await stackServerApp.getUser({ or: "redirect" });
  return (
    <main>
      <h1>Protected page</h1>
      <p data-testid="protected">Only for {user.primaryEmail}</p>
    </main>
  );
}
