import { stackServerApp } from "../../stack/server";

// The server API with the secret server key: every user of the project, listed on the server.
export default async function Users() {
  const users = await stackServerApp.listUsers({ orderBy: "signedUpAt", desc: false });
  return (
    <main>
      <h1>Users</h1>
      <ul data-testid="users">
        {users.map((user) => (
          <li key={user.id}>
            {user.primaryEmail ?? user.id} ({user.displayName ?? "no name"})
          </li>
        ))}
      </ul>
    </main>
  );
}
