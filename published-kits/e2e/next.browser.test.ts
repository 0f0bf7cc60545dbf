import { spawn } from "node:child_process";
import { expect, it } from "vitest";
import { freePort, isolatedEnv, kitApps } from "./kit-apps.ts";
import { describePublishedKit, kitEnv, type RunningApp } from "./kit-flows.ts";

/**
 * The published @stackframe/stack in a Next.js app (../next: app router, server components, the nextjs-cookie token
 * store), built once by the global setup and run here with `next start` and the env lines `npm start` prints.
 */
async function startNext(apiUrl: string): Promise<RunningApp> {
  const app = kitApps.next;
  const port = await freePort();
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: app.dir,
    env: isolatedEnv(kitEnv(apiUrl)),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`next start did not get ready within 60 s:\n${output}`)), 60_000);
    child.stdout.on("data", () => {
      if (/Ready in/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`next start exited with ${String(code)}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        // Only the server this test started, by its own handle.
        child.kill("SIGTERM");
      }),
  };
}

describePublishedKit({
  kit: "next",
  title: "the published @stackframe/stack in a Next.js app",
  startApp: startNext,
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
