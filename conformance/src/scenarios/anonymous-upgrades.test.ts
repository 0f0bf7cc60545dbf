import { describe, expect, it } from "vitest";
import type { StackClientApp } from "@authsim/sdk";
import { browserApp, landBack } from "../suites/strong-auth-support.ts";
import { clientApp, clientWithTokens, expectKnownError, serverApp } from "../suites/support.ts";
import { loadScenario, readScenario, SCENARIO_PASSWORD, type LoadedScenario } from "./load-scenario.ts";

/**
 * Fixture-driven scenario (issue 10): the app of fixtures/scenarios/anonymous-upgrades.json, where visitors draw as
 * anonymous users and sign up later. Spec §4: an anonymous user counts as signed in only when anonymous mode is asked
 * for, and asking for it signs one up; protocol.md §7.8: signing up (password, magic link, OAuth) with the anonymous
 * user's token upgrades that same user, data included; server listings leave anonymous users out unless asked.
 */
const scenario = readScenario("anonymous-upgrades.json");
const load = () => loadScenario(scenario);
const MAGIC_LINK_CALLBACK = "http://localhost:3000/handler/magic-link-callback";

/** A visitor who drew something while anonymous: metadata of their own, and credits the server granted. */
async function anonymousVisitor({ target }: LoadedScenario, app: StackClientApp = clientApp(target)) {
  expect(await app.getUser()).toBeNull();
  const anonymous = await app.getUser({ or: "anonymous" });
  expect(anonymous).toMatchObject({ isAnonymous: true, primaryEmail: null, hasPassword: false });
  await anonymous.update({ clientMetadata: { drawings: ["first-sketch"] } });
  await (await serverApp(target).getItem({ itemId: "canvas-credits", userId: anonymous.id })).increaseQuantity(5);
  // Still "not signed in" for an ordinary getUser (spec §4), but the same user for anonymous mode.
  expect(await app.getUser()).toBeNull();
  expect((await app.getUser({ or: "anonymous" })).id).toBe(anonymous.id);
  return { app, id: anonymous.id };
}

async function expectUpgraded(scenarioLoaded: LoadedScenario, app: StackClientApp, id: string, email: string) {
  const user = await app.getUser({ or: "throw" });
  expect(user).toMatchObject({
    id,
    isAnonymous: false,
    primaryEmail: email,
    clientMetadata: { drawings: ["first-sketch"] },
  });
  expect((await user.getItem("canvas-credits")).quantity).toBe(5);
  expect(await serverApp(scenarioLoaded.target).getUser(id)).toMatchObject({
    id,
    isAnonymous: false,
    primaryEmail: email,
  });
  return user;
}

describe("scenario: an app with anonymous upgrades", () => {
  it("a password sign-up upgrades the anonymous user: same id, drawings, credits and team kept, and the password signs in", async () => {
    const loaded = await load();
    const { app, id } = await anonymousVisitor(loaded);
    const anonymous = await app.getUser({ or: "anonymous" });
    const team = await anonymous.createTeam({ displayName: "Weekend sketchers" });

    expect(
      (
        await app.signUpWithCredential({
          email: "new-artist@sketchpad.test",
          password: SCENARIO_PASSWORD,
          noRedirect: true,
          noVerificationCallback: true,
        })
      ).status,
    ).toBe("ok");
    const user = await expectUpgraded(loaded, app, id, "new-artist@sketchpad.test");
    expect(user.hasPassword).toBe(true);
    expect((await user.listTeams()).map((t) => t.id)).toEqual([team.id]);

    const again = clientApp(loaded.target);
    expect(
      (
        await again.signInWithCredential({
          email: "new-artist@sketchpad.test",
          password: SCENARIO_PASSWORD,
          noRedirect: true,
        })
      ).status,
    ).toBe("ok");
    expect((await again.getUser({ or: "throw" })).id).toBe(id);
  });

  it("a magic link sign-in upgrades the anonymous user with a verified email", async () => {
    const loaded = await load();
    const { app, id } = await anonymousVisitor(loaded);
    expect((await app.sendMagicLinkEmail("linked@sketchpad.test", { callbackUrl: MAGIC_LINK_CALLBACK })).status).toBe(
      "ok",
    );
    const email = loaded.target.provider.outbox.latest({ to: "linked@sketchpad.test" })!;
    expect((await app.signInWithMagicLink(email.code!, { noRedirect: true })).status).toBe("ok");
    const user = await expectUpgraded(loaded, app, id, "linked@sketchpad.test");
    expect(user.primaryEmailVerified).toBe(true);
  });

  it("an OAuth sign-in upgrades the anonymous user, who then signs in with that provider", async () => {
    const loaded = await load();
    const { target } = loaded;
    const { app, browser } = browserApp(target);
    const { id } = await anonymousVisitor(loaded, app);
    await app.signInWithOAuth("github");
    await landBack(target, browser, { account_id: "gh-sketcher", email: "sketcher@github.test", name: "Sketcher" });
    expect(await app.callOAuthCallback()).toBe(true);
    // A new account for the project's purposes: the after-sign-up page.
    expect(browser.navigated.at(-1)).toBe("/welcome");
    const user = await expectUpgraded(loaded, app, id, "sketcher@github.test");
    expect(user.oauthProviders).toEqual([{ id: "github" }]);

    const later = browserApp(target);
    await later.app.signInWithOAuth("github");
    await landBack(target, later.browser, { account_id: "gh-sketcher" });
    await later.app.callOAuthCallback();
    expect((await later.app.getUser({ or: "throw" })).id).toBe(id);
  });

  it("an earlier visitor of the fixture comes back with a server-made session and keeps their drawing through the upgrade", async () => {
    const loaded = await load();
    const visitorId = loaded.project.users["visitor-7"]!;
    const tokens = await (await (await serverApp(loaded.target).getUser(visitorId))!.createSession()).getTokens();
    const app = clientWithTokens(loaded.target, {
      accessToken: tokens.accessToken!,
      refreshToken: tokens.refreshToken!,
    });
    const visitor = await app.getUser({ or: "anonymous" });
    expect(visitor).toMatchObject({ id: visitorId, isAnonymous: true, clientMetadata: { drawings: ["doodle-7"] } });
    expect((await visitor.getItem("canvas-credits")).quantity).toBe(3);
    expect(
      (
        await app.signUpWithCredential({
          email: "visitor7@sketchpad.test",
          password: SCENARIO_PASSWORD,
          noRedirect: true,
          noVerificationCallback: true,
        })
      ).status,
    ).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    expect(user).toMatchObject({ id: visitorId, isAnonymous: false, clientMetadata: { drawings: ["doodle-7"] } });
    expect((await user.getItem("canvas-credits")).quantity).toBe(3);
  });

  it("server listings leave anonymous users out unless include_anonymous; only_anonymous lists just them", async () => {
    const loaded = await load();
    const { project, target } = loaded;
    const { id: newVisitor } = await anonymousVisitor(loaded);
    const server = serverApp(target);
    const ids = async (options: Parameters<typeof server.listUsers>[0]) =>
      (await server.listUsers(options)).map((u) => u.id).sort();
    const members = [project.users.maria!, project.users.leo!].sort();
    const visitors = [project.users["visitor-7"]!, project.users["visitor-9"]!, newVisitor].sort();
    expect(await ids({})).toEqual(members);
    expect(await ids({ includeAnonymous: true })).toEqual([...members, ...visitors].sort());
    expect(await ids({ includeAnonymous: true, onlyAnonymous: true })).toEqual(visitors);
    expect(
      (await server.listUsers({ includeAnonymous: true }))
        .filter((u) => u.isAnonymous)
        .map((u) => u.id)
        .sort(),
    ).toEqual(visitors);
  });

  it("signing up with an email already used is refused (USER_EMAIL_ALREADY_EXISTS) and leaves the visitor anonymous, data intact", async () => {
    const loaded = await load();
    const { project, target } = loaded;
    const { app, id } = await anonymousVisitor(loaded);
    const refused = await app.signUpWithCredential({
      email: "maria@sketchpad.test",
      password: "another password 1",
      noRedirect: true,
      noVerificationCallback: true,
    });
    expect(refused.status).toBe("error");
    if (refused.status === "error")
      expect(refused.error).toMatchObject({
        code: "USER_EMAIL_ALREADY_EXISTS",
        status: 409,
        details: { email: "maria@sketchpad.test" },
      });
    expect(await app.getUser({ or: "anonymous" })).toMatchObject({
      id,
      isAnonymous: true,
      clientMetadata: { drawings: ["first-sketch"] },
    });
    // Maria's account is untouched: her password still signs her in, to her own id.
    const maria = clientApp(target);
    expect(
      (
        await maria.signInWithCredential({
          email: "maria@sketchpad.test",
          password: SCENARIO_PASSWORD,
          noRedirect: true,
        })
      ).status,
    ).toBe("ok");
    expect((await maria.getUser({ or: "throw" })).id).toBe(project.users.maria);

    // A magic link to an address that already has an account signs that account in; the visitor stays behind, anonymous.
    await app.sendMagicLinkEmail("maria@sketchpad.test", { callbackUrl: MAGIC_LINK_CALLBACK });
    const link = target.provider.outbox.latest({ to: "maria@sketchpad.test" })!;
    expect((await app.signInWithMagicLink(link.code!, { noRedirect: true })).status).toBe("ok");
    expect((await app.getUser({ or: "throw" })).id).toBe(project.users.maria);
    expect(await serverApp(target).getUser(id)).toMatchObject({ id, isAnonymous: true });
  });

  it("a project whose fixture closes anonymous sign-up refuses it with ANONYMOUS_ACCOUNTS_NOT_ENABLED", async () => {
    const closed = structuredClone(scenario) as { projects: { config: Record<string, unknown> }[] };
    closed.projects[0]!.config.anonymous_enabled = false;
    const { target } = await loadScenario(closed);
    const app = clientApp(target);
    await expectKnownError(app.getUser({ or: "anonymous" }), "ANONYMOUS_ACCOUNTS_NOT_ENABLED", 400);
    expect(await app.getUser()).toBeNull();
    // Members are not affected.
    expect(
      (await app.signInWithCredential({ email: "leo@sketchpad.test", password: SCENARIO_PASSWORD, noRedirect: true }))
        .status,
    ).toBe("ok");
  });
});
