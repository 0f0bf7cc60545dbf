import { describe, expect, it } from "vitest";
import type { ServerUser, StackServerApp } from "@authsim/sdk";
import { manualClock } from "@authsim/sdk/runtime";
import type { Target } from "../targets.ts";
import {
  clientApp,
  expectKnownError,
  PASSWORD,
  recordingFetch,
  serverApp,
  manualClockOf,
  signedUpClient,
  tokenTimes,
  uniqueEmail,
  uniqueTag,
} from "./support.ts";

/** Server user management (spec §7 "Server only"; protocol.md §5.2) and local token verification (protocol.md §4.1). */

async function createTagged(
  server: StackServerApp,
  tag: string,
  count: number,
  between?: () => Promise<void>,
): Promise<ServerUser[]> {
  const users: ServerUser[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0 && between) await between();
    users.push(
      await server.createUser({ primaryEmail: `${tag}-${i}@conformance.example.com`, displayName: `${tag} ${i}` }),
    );
  }
  return users;
}

const ids = (users: readonly { id: string }[]) => users.map((u) => u.id);

export function serverUserCases(getTarget: () => Target): void {
  describe("server users", () => {
    it("createUser (password, serverMetadata, primaryEmailVerified) makes a user that signs in with the client SDK", async () => {
      const target = getTarget();
      const email = uniqueEmail("server-made");
      const created = await serverApp(target).createUser({
        primaryEmail: email,
        password: PASSWORD,
        primaryEmailAuthEnabled: true,
        primaryEmailVerified: true,
        displayName: "Made by the server",
        serverMetadata: { plan: "pro", seats: 3 },
      });
      expect(created.primaryEmail).toBe(email);
      expect(created.primaryEmailVerified).toBe(true);
      expect(created.hasPassword).toBe(true);
      expect(created.serverMetadata).toEqual({ plan: "pro", seats: 3 });

      const client = clientApp(target);
      expect((await client.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
      const me = await client.getUser({ or: "throw" });
      expect(me.id).toBe(created.id);
      expect(me.displayName).toBe("Made by the server");
      expect(me.primaryEmailVerified).toBe(true);
    });

    it("getUser(id) reads the server view; an unknown id gives null", async () => {
      const target = getTarget();
      const server = serverApp(target);
      const created = await server.createUser({
        primaryEmail: uniqueEmail("read"),
        serverMetadata: { secret: "s" },
        clientMetadata: { c: 1 },
      });
      const read = await server.getUser(created.id);
      expect(read?.id).toBe(created.id);
      expect(read?.serverMetadata).toEqual({ secret: "s" });
      expect(read?.clientMetadata).toEqual({ c: 1 });
      expect(read?.hasPassword).toBe(false);
      expect(read?.lastActiveAt).toBeInstanceOf(Date);
      expect(await server.getUser(crypto.randomUUID())).toBeNull();
    });

    it("createUser refuses a taken sign-in email (409) as a thrown known error, and takes a short password as given", async () => {
      const target = getTarget();
      const { email } = await signedUpClient(target);
      const server = serverApp(target);
      await expectKnownError(
        server.createUser({ primaryEmail: email, password: PASSWORD, primaryEmailAuthEnabled: true }),
        "USER_EMAIL_ALREADY_EXISTS",
        409,
      );
      // Upstream's users endpoint applies no password rules (they guard the end-user routes), so a server may set one.
      const shortEmail = uniqueEmail("short");
      const created = await server.createUser({
        primaryEmail: shortEmail,
        password: "short",
        primaryEmailAuthEnabled: true,
      });
      expect(created.hasPassword).toBe(true);
      expect(
        (await clientApp(target).signInWithCredential({ email: shortEmail, password: "short", noRedirect: true }))
          .status,
      ).toBe("ok");
    });

    it("listUsers walks every page with limit and nextCursor, with no duplicates", async () => {
      const target = getTarget();
      const server = serverApp(target);
      const tag = uniqueTag("page");
      const created = await createTagged(server, tag, 5);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await server.listUsers({ query: tag, limit: 2, ...(cursor ? { cursor } : {}) });
        expect(page.length).toBeLessThanOrEqual(2);
        expect(page.length).toBeGreaterThan(0);
        seen.push(...ids(page));
        cursor = page.nextCursor ?? undefined;
        pages += 1;
        expect(pages).toBeLessThanOrEqual(5);
      } while (cursor);
      expect(pages).toBe(3);
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort()).toEqual(ids(created).sort());
    });

    it("listUsers filters by query and orders by sign-up time, ascending or with desc", async () => {
      const target = getTarget();
      const server = serverApp(target);
      const tag = uniqueTag("order");
      // With controls, a second between sign-ups makes the order strict; otherwise only monotonicity is checked.
      const controls = target.controls;
      const created = await createTagged(server, tag, 3, controls ? () => controls.advanceClock(1_000) : undefined);
      await createTagged(server, uniqueTag("other"), 1);

      const ascending = await server.listUsers({ query: tag });
      const descending = await server.listUsers({ query: tag, desc: true });
      expect([...ids(ascending)].sort()).toEqual(ids(created).sort());
      expect(ascending.nextCursor).toBeNull();
      const times = (users: ServerUser[]) => users.map((u) => u.signedUpAt.getTime());
      expect(times(ascending)).toEqual([...times(ascending)].sort((a, b) => a - b));
      expect(times(descending)).toEqual([...times(descending)].sort((a, b) => b - a));
      if (controls) {
        expect(ids(ascending)).toEqual(ids(created));
        expect(ids(descending)).toEqual(ids(created).reverse());
      }
    });

    it("update sets serverMetadata and the password: the new password signs in, the old one no longer does", async () => {
      const target = getTarget();
      const { email, userId } = await signedUpClient(target);
      const server = serverApp(target);
      const user = await server.getUser(userId);
      expect(user).not.toBeNull();
      await user!.update({
        serverMetadata: { tier: "gold" },
        clientReadOnlyMetadata: { badge: "early" },
        password: "a-brand-new-password",
      });
      const read = await server.getUser(userId);
      expect(read?.serverMetadata).toEqual({ tier: "gold" });

      const client = clientApp(target);
      const old = await client.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
      expect(old.status === "error" && old.error.code).toBe("EMAIL_PASSWORD_MISMATCH");
      expect(
        (await client.signInWithCredential({ email, password: "a-brand-new-password", noRedirect: true })).status,
      ).toBe("ok");
      const me = await client.getUser({ or: "throw" });
      expect(me.id).toBe(userId);
      expect(me.clientReadOnlyMetadata).toEqual({ badge: "early" });
    });

    it("delete removes the user: getUser(id) is null and its session is over", async () => {
      const target = getTarget();
      const { app, userId } = await signedUpClient(target);
      const server = serverApp(target);
      const user = await server.getUser(userId);
      await user!.delete();
      expect(await server.getUser(userId)).toBeNull();
      // The client still holds a valid access token, but its user is gone.
      expect(await app.getUser()).toBeNull();
      expect(
        await clientApp(target, {
          tokenStore: { accessToken: null, refreshToken: await app.getRefreshToken() },
        }).getUser(),
      ).toBeNull();
    });
  });

  describe("server getUser from a request", () => {
    it("verifies the access token locally against the JWKS, fetched once and again after 300 s", async () => {
      const target = getTarget();
      const { app, userId } = await signedUpClient(target);
      const accessToken = (await app.getAccessToken())!;
      // The key-set cache runs on the SDK's clock: the shared one in process, else a manual one started at the
      // token's issue time (the provider's time), so no real time needs to pass.
      const clock = manualClockOf(target) ?? manualClock(tokenTimes(accessToken).issuedAtMillis);
      const recorder = recordingFetch(target);
      const server = serverApp(target, { fetch: recorder.fetch, clock, tokenStore: null });
      const jwksPath = `/api/v1/projects/${target.projectId}/.well-known/jwks.json`;
      const request = { headers: new Headers({ "x-stack-access-token": accessToken }) };

      for (let i = 0; i < 3; i++) expect((await server.getUser({ tokenStore: request }))?.id).toBe(userId);
      expect(recorder.count(jwksPath)).toBe(1);
      expect(recorder.count("/api/v1/users/me")).toBe(3);

      clock.advance(300_000);
      expect((await server.getUser({ tokenStore: request, or: "throw" })).id).toBe(userId);
      expect(recorder.count(jwksPath)).toBe(2);
    });

    it("reads the tokens of a client's Authorization header", async () => {
      const target = getTarget();
      const { app, userId } = await signedUpClient(target);
      const authorization = await app.getAuthorizationHeader();
      expect(authorization).toMatch(/^Bearer stackauth_/);
      const server = serverApp(target, { tokenStore: null });
      const user = await server.getUser({
        tokenStore: { headers: { authorization: authorization ?? "" } },
        or: "throw",
      });
      expect(user.id).toBe(userId);
      expect(user.serverMetadata).toBeNull();
    });

    it('sees an anonymous user\'s request only with or: "anonymous"', async () => {
      const target = getTarget();
      const app = clientApp(target);
      const anonymous = await app.getUser({ or: "anonymous" });
      const recorder = recordingFetch(target);
      const server = serverApp(target, { fetch: recorder.fetch, tokenStore: null });
      const request = { headers: { "x-stack-access-token": (await app.getAccessToken()) ?? "" } };
      expect(await server.getUser({ tokenStore: request })).toBeNull();
      const user = await server.getUser({ tokenStore: request, or: "anonymous" });
      expect(user.id).toBe(anonymous.id);
      expect(user.isAnonymous).toBe(true);
      // Anonymous tokens are signed with keys only the wider key set lists (protocol.md §4.1).
      expect(recorder.seen.some((r) => r.path.endsWith("/.well-known/jwks.json"))).toBe(true);
      expect(recorder.count("/api/v1/auth/anonymous/sign-up")).toBe(0);
    });

    it("refuses a token whose signature does not verify, without asking for the user", async () => {
      const target = getTarget();
      const { app } = await signedUpClient(target);
      const [header, payload, signature] = (await app.getAccessToken())!.split(".") as [string, string, string];
      const flipped = signature.slice(0, 10) + (signature[10] === "A" ? "B" : "A") + signature.slice(11);
      const recorder = recordingFetch(target);
      const server = serverApp(target, { fetch: recorder.fetch, tokenStore: null });
      const request = { headers: { "x-stack-access-token": `${header}.${payload}.${flipped}` } };
      expect(await server.getUser({ tokenStore: request })).toBeNull();
      expect(recorder.count("/api/v1/users/me")).toBe(0);
    });
  });
}
