import { expect, it } from "vitest";
import { describePublishedKit } from "./kit-flows.ts";
import { startNext } from "./next-app.ts";

/**
 * The published @stackframe/stack in a Next.js app (../next: app router, server components, the nextjs-cookie token
 * store), built once by the global setup and run with `next start` and the env lines `npm start` prints (next-app.ts).
 */
describePublishedKit({
  kit: "next",
  title: "the published @stackframe/stack in a Next.js app",
  startApp: (apiUrl) => startNext(apiUrl),
  // A server component's redirect (stackServerApp.getUser({ or: "redirect" })) and a client component's (useUser).
  protectedPages: [
    { path: "/protected", after: "home" },
    { path: "/protected-client", after: "back" },
  ],
  more: (ctx) => {
    it("lists the project's users on the server with listUsers()", async () => {
      const { page, app } = ctx();
      await page.goto(`${app.url}/users`);
      const users = page.getByTestId("users");
      await users.waitFor();
      // What the page rendered on the server is what the server API lists: every user, the ones signed up above too.
      const listed = await ctx().server<{ items: { primary_email: string | null; id: string }[] }>("GET", "/users");
      const shown = (await users.getByRole("listitem").allTextContents()).map((line) => line.replace(/ \(.*\)$/, ""));
      expect(shown.sort()).toEqual(listed.items.map((u) => u.primary_email ?? u.id).sort());
      expect(shown).toContain(ctx().email("ada"));
      await ctx().shot("list-users");
      expect(ctx().takePageErrors()).toEqual([]);
    });
  },
});
