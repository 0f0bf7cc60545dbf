import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { manualClock } from "../runtime/clock.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import { fakeFetch, json } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { claims, testSigner, type TestSigner } from "../test-support/tokens.ts";
import { adminProjectJson, clientUserJson, serverUserJson } from "../test-support/wire-fixtures.ts";

/**
 * An `internal` user's owned projects come with an admin app the client layer does not import: the package entry
 * registers it (client/owned-projects.ts). Every entry of sdk/package.json that exposes a client or server app must,
 * so each is loaded here in a module graph of its own (nothing registered by another entry) and asked for owned projects.
 */

const T0 = 1_750_000_000_000;
const OWNED_ID = "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d";
const sdkRoot = new URL("../../", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("package.json", sdkRoot), "utf8")) as {
  exports: Record<string, Record<string, string>>;
};

interface AppClass {
  new (options: Record<string, unknown>): { getUser(options: { or: "throw" }): Promise<Record<string, unknown>> };
}

function wire(userJson: unknown, signer: TestSigner) {
  const owned = { ...adminProjectJson(), id: OWNED_ID, display_name: "Owned" };
  const ff = fakeFetch(
    router({
      "GET /users/me": () => json(userJson),
      // A server app verifies the user's access token against the project's keys.
      "GET /projects/internal/.well-known/jwks.json": () => json(signer.jwks),
      "GET /internal/projects": () => json({ items: [owned], is_paginated: false }),
      "POST /internal/projects": () => json(owned),
      "GET /internal/projects/current": () => json({ ...owned, display_name: "Owned, read again" }),
    }),
  );
  return ff;
}

async function ownedProjectsThrough(name: string, App: AppClass) {
  const isServer = /ServerApp$/.test(name);
  const signer = await testSigner();
  const ff = wire(isServer ? serverUserJson() : clientUserJson(), signer);
  const accessToken = await signer.sign(claims(T0, 600_000));
  const app = new App({
    projectId: "internal",
    baseUrl: "http://api.test",
    publishableClientKey: "pck",
    ...(isServer ? { secretServerKey: "ssk" } : {}),
    tokenStore: memoryTokenStore({ accessToken, refreshToken: "rt" }),
    fetch: ff.fetch,
    clock: manualClock(T0),
  });
  const user = (await app.getUser({ or: "throw" })) as {
    listOwnedProjects(): Promise<
      { id: string; displayName: string; app: { getProject(): Promise<{ displayName: string }> } }[]
    >;
    createProject(options: {
      displayName: string;
      teamId: string;
    }): Promise<{ id: string; app: { getProject(): Promise<{ displayName: string }> } }>;
  };
  const [listed] = await user.listOwnedProjects();
  const created = await user.createProject({ displayName: "Owned", teamId: "team-1" });
  return { ff, accessToken, listed: listed!, created };
}

describe("owned projects from each package entry (sdk-surface.md §17 AdminOwnedProject)", () => {
  const entries = Object.entries(manifest.exports).map(
    ([name, conditions]) => [name, conditions["@authsim/source"]!] as const,
  );

  it.each(entries)(
    "%s: every client or server app it exposes gives owned projects a working admin app",
    async (_entry, source) => {
      vi.resetModules();
      const module = (await import(new URL(source, sdkRoot).href)) as Record<string, unknown>;
      const apps = Object.entries(module).filter(
        (e): e is [string, AppClass] => typeof e[1] === "function" && /(Client|Server)App$/.test(e[0]),
      );
      for (const [name, App] of apps) {
        const { ff, accessToken, listed, created } = await ownedProjectsThrough(name, App);
        expect([listed.id, listed.displayName, created.id], name).toEqual([OWNED_ID, "Owned", OWNED_ID]);
        // The admin app acts on the owned project, with admin access and the owner's token, and has no session of its own.
        expect((await listed.app.getProject()).displayName, name).toBe("Owned, read again");
        expect((await created.app.getProject()).displayName, name).toBe("Owned, read again");
        const reads = ff.calls.filter((c) => c.url.endsWith("/internal/projects/current"));
        expect(
          reads.map((c) => [
            c.headers["x-stack-project-id"],
            c.headers["x-stack-access-type"],
            c.headers["x-stack-admin-access-token"],
          ]),
          name,
        ).toEqual([
          [OWNED_ID, "admin", accessToken],
          [OWNED_ID, "admin", accessToken],
        ]);
        if (typeof module.StackAdminApp === "function") expect(listed.app, name).toBeInstanceOf(module.StackAdminApp);
      }
      // The entries that expose apps are the ones this must hold for; the package's main entry is one of them.
      if (source === "./src/index.ts")
        expect(apps.map(([name]) => name)).toEqual(expect.arrayContaining(["StackClientApp", "StackServerApp"]));
    },
  );
});
