import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadFixture, type LoadedProject } from "@authsim/fixtures";
import { StackClientApp, StackServerApp } from "@authsim/sdk";
import { inProcessTarget } from "../targets.ts";

/**
 * Fixture-driven integration (issue 10): the SaaS scenario of fixtures/scenarios/ loaded into a fresh fake through
 * the public API, then exercised by our SDK as an app would: its users sign in with their passwords, see their teams
 * and roles, and the server sees the seats and keys the scenario declares.
 */
const scenario: unknown = JSON.parse(
  readFileSync(new URL("../../../fixtures/scenarios/saas-teams.json", import.meta.url), "utf8"),
);
const PASSWORD = "correct horse battery";

async function loaded() {
  const target = inProcessTarget();
  const report = await loadFixture(scenario, { baseUrl: target.baseUrl, fetch: target.fetch, emulator: true });
  const project = report.projects[0]!;
  const platform = { baseUrl: target.baseUrl, fetch: target.fetch, clock: target.clock, projectId: project.projectId };
  const client = () =>
    new StackClientApp({
      ...platform,
      publishableClientKey: project.keys.publishable_client_key,
      tokenStore: "memory",
    });
  const server = new StackServerApp({
    ...platform,
    publishableClientKey: project.keys.publishable_client_key,
    secretServerKey: project.keys.secret_server_key,
    tokenStore: "memory",
  });
  return { project, client, server };
}

async function signIn(client: StackClientApp, email: string) {
  const result = await client.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
  expect(result.status).toBe("ok");
  return client.getUser({ or: "throw" });
}

const idOf = (project: LoadedProject, ref: string) => project.teams[ref] ?? project.users[ref];

describe("scenario: a SaaS with teams and roles", () => {
  it("lets each seeded user sign in with the fixture's password and land in their selected team", async () => {
    const { project, client } = await loaded();
    const alice = await signIn(client(), "alice@northwind.test");
    expect(alice.displayName).toBe("Alice Owner");
    expect(alice.primaryEmailVerified).toBe(true);
    expect(alice.clientMetadata).toEqual({ onboarded: true });
    expect(alice.selectedTeam?.id).toBe(idOf(project, "northwind"));
    expect((await alice.listTeams()).map((t) => t.displayName)).toContain("Northwind Traders");
  });

  it("grants the declared roles, expanded through contained permissions", async () => {
    const { project, client } = await loaded();
    const signedBob = await signIn(client(), "bob@northwind.test");
    const team = (await signedBob.getTeam(idOf(project, "northwind")!))!;
    // editor ⊃ viewer ⊃ docs:read, editor ⊃ docs:write; nothing of owner's.
    expect(await signedBob.hasPermission(team, "editor")).toBe(true);
    expect(await signedBob.hasPermission(team, "docs:write")).toBe(true);
    expect(await signedBob.hasPermission(team, "docs:read")).toBe(true);
    expect(await signedBob.hasPermission(team, "billing:manage")).toBe(false);
    const carol = await signIn(client(), "carol@northwind.test");
    expect(await carol.hasPermission(team, "docs:read")).toBe(true);
    expect(await carol.hasPermission(team, "docs:write")).toBe(false);
  });

  it("gives the server the declared metadata, seats, credits and working API keys", async () => {
    const { project, server } = await loaded();
    const alice = (await server.getUser(project.users.alice!))!;
    expect(alice.serverMetadata).toEqual({ plan: "business" });
    const seats = await server.getItem({ itemId: "seats", teamId: project.teams.northwind! });
    expect(seats.quantity).toBe(10);
    const credits = await server.getItem({ itemId: "ai-credits", userId: project.users.alice! });
    expect(credits.quantity).toBe(250);

    const cliKey = project.apiKeys.find((k) => k.owner === "user" && k.description === "Alice's CLI")!;
    expect((await server.getUser({ apiKey: cliKey.value }))?.id).toBe(project.users.alice);
    const deployKey = project.apiKeys.find((k) => k.owner === "team" && k.description === "CI deploy key")!;
    expect(await server.checkApiKey({ type: "team", apiKey: deployKey.value })).toMatchObject({
      teamId: project.teams.northwind,
    });
    const revokedKey = project.apiKeys.find((k) => k.description === "Old integration")!;
    expect(await server.checkApiKey({ type: "team", apiKey: revokedKey.value })).toBeNull();
  });

  it("keeps teams apart: a Globex member sees only Globex", async () => {
    const { project, client } = await loaded();
    const dave = await signIn(client(), "dave@globex.test");
    expect((await dave.listTeams()).map((t) => t.id)).toEqual([project.teams.globex]);
    expect(await dave.getTeam(project.teams.northwind!)).toBeNull();
  });
});
