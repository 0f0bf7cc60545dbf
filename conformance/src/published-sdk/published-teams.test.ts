import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StackAdminApp } from "@stackframe/js";
import { serveFakeProvider, type ServedProvider } from "../harness/serve.ts";
import { publishedApps } from "./published-apps.ts";

/**
 * What the published @stackframe/js (2.8.108) exposes of teams and permissions, unchanged against the fake over a real
 * port: server createTeam and team.addUser, admin createTeamPermissionDefinition (it sends `description` and no
 * contained ids, wire capture #11), user.grantPermission and hasPermission, and the client's own team calls.
 */
let served: ServedProvider;
beforeAll(async () => {
  served = await serveFakeProvider();
});
afterAll(async () => {
  await served.close();
});

const { clientApp, serverApp, adminApp } = publishedApps(() => served);

describe("published @stackframe/js 2.8.108: teams and permissions against the fake provider", () => {
  it("server createTeam and team.addUser; the member's listing shows the team", async () => {
    const server = serverApp();
    const team = await server.createTeam({ displayName: "Published Team" });
    expect(team.displayName).toBe("Published Team");
    expect(team.createdAt).toBeInstanceOf(Date);
    const user = await server.createUser({ primaryEmail: "published-member@example.com" });
    await team.addUser(user.id);
    expect((await team.listUsers()).map((u) => u.id)).toEqual([user.id]);
    const teams = await (await server.getUser(user.id))!.listTeams();
    expect(teams.map((t) => t.id)).toEqual([team.id]);
  });

  it("admin createTeamPermissionDefinition with a description; grantPermission and hasPermission on a server user", async () => {
    const admin = adminApp();
    const definition = await admin.createTeamPermissionDefinition({
      id: "published_perm",
      description: "traced",
      containedPermissionIds: ["$update_team"],
    });
    expect(definition.id).toBe("published_perm");
    const bare = await admin.createTeamPermissionDefinition({
      id: "published_bare",
      description: "no contained ids",
    } as Parameters<StackAdminApp["createTeamPermissionDefinition"]>[0]);
    expect(bare).toMatchObject({ id: "published_bare", containedPermissionIds: [] });
    const listed = await admin.listTeamPermissionDefinitions();
    expect(listed.find((d) => d.id === "published_perm")).toMatchObject({
      description: "traced",
      containedPermissionIds: ["$update_team"],
    });

    const server = serverApp();
    const team = await server.createTeam({ displayName: "Granted Team" });
    const user = await server.createUser({ primaryEmail: "published-granted@example.com" });
    await team.addUser(user.id);
    expect(await user.hasPermission(team, "published_perm")).toBe(false);
    await user.grantPermission(team, "published_perm");
    expect(await user.hasPermission(team, "published_perm")).toBe(true);
    // Recursive by default: the contained system permission comes with it.
    expect(await user.hasPermission(team, "$update_team")).toBe(true);
    const members = await server.listTeamMemberPermissions(team.id);
    expect(members.map((m) => m.permissionId).sort()).toEqual(["published_perm", "team_member"]);
  });

  it("a signed-in client creates a team, lists it and reads its own permissions in it", async () => {
    const client = clientApp();
    const signUp = await client.signUpWithCredential({
      email: "published-creator@example.com",
      password: "password-123",
      noVerificationCallback: true,
      noRedirect: true,
    });
    expect(signUp.status).toBe("ok");
    const user = await client.getUser({ or: "throw" });
    const team = await user.createTeam({ displayName: "Client Team" });
    const again = await client.getUser({ or: "throw" });
    expect(again.selectedTeam?.id).toBe(team.id);
    expect((await again.listTeams()).map((t) => t.id)).toEqual([team.id]);
    expect(await again.hasPermission(team, "$delete_team")).toBe(true);
    await team.update({ displayName: "Client Team Renamed" });
    expect((await again.getTeam(team.id))?.displayName).toBe("Client Team Renamed");
  });
});
