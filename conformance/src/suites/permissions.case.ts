import { describe, expect, it } from "vitest";
import type { Target } from "../targets.ts";
import { adminApp, expectKnownError, itIf, serverApp, signedUpClient, uniqueTag } from "./support.ts";
import { ownProjectNeed, projectOfItsOwn } from "./own-project.ts";
import { permissionTag } from "./team-support.ts";

/**
 * Permission definitions (admin), grants (server) and the user's view of them (spec §6, §9 "recursion default true";
 * protocol.md §5.4; sdk-surface.md §8, §9b, §9c, §14). Ids are unique per run, so a long-lived target is fine.
 */

/** A team made by the server with one signed-up member (who holds the member defaults). */
async function memberOfNewTeam(target: Target) {
  const member = await signedUpClient(target);
  const team = await serverApp(target).createTeam({ displayName: uniqueTag("perm-team") });
  await team.addUser(member.userId);
  const serverUser = (await serverApp(target).getUser(member.userId))!;
  return { member, team, serverUser };
}

export function permissionCases(getTarget: () => Target): void {
  describe("permission definitions", () => {
    it("lists the system permissions and the seeded defaults in team scope", async () => {
      const ids = (await adminApp(getTarget()).listTeamPermissionDefinitions()).map((d) => d.id);
      for (const id of [
        "$update_team",
        "$delete_team",
        "$read_members",
        "$remove_members",
        "$invite_members",
        "$manage_api_keys",
        "team_admin",
        "team_member",
      ]) {
        expect(ids).toContain(id);
      }
    });

    it("creates, updates and deletes team and project definitions", async () => {
      const admin = adminApp(getTarget());
      const [reader, editor, docs] = [permissionTag("reader"), permissionTag("editor"), permissionTag("docs")];
      expect(
        await admin.createTeamPermissionDefinition({
          id: reader,
          description: "Reads",
          containedPermissionIds: ["$read_members"],
        }),
      ).toEqual({ id: reader });
      await admin.createTeamPermissionDefinition({ id: editor });
      await admin.updateTeamPermissionDefinition(editor, {
        containedPermissionIds: [reader, "$update_team"],
        description: "Edits",
      });
      const listed = (await admin.listTeamPermissionDefinitions()).find((d) => d.id === editor);
      // Contained ids come back sorted, as the real service answers them.
      expect(listed).toEqual({ id: editor, description: "Edits", containedPermissionIds: ["$update_team", reader] });
      await admin.createProjectPermissionDefinition({ id: docs, containedPermissionIds: [] });
      expect((await admin.listProjectPermissionDefinitions()).map((d) => d.id)).toContain(docs);
      await admin.deleteProjectPermissionDefinition(docs);
      expect((await admin.listProjectPermissionDefinitions()).map((d) => d.id)).not.toContain(docs);
      await admin.deleteTeamPermissionDefinition(editor);
      await admin.deleteTeamPermissionDefinition(reader);
    });

    it("refuses duplicates, unknown contained ids, unknown ids and the other scope's ids with catalogue errors", async () => {
      const admin = adminApp(getTarget());
      const [taken, proj] = [permissionTag("taken"), permissionTag("proj")];
      await admin.createTeamPermissionDefinition({ id: taken });
      await admin.createProjectPermissionDefinition({ id: proj });
      const duplicate = await expectKnownError(
        admin.createProjectPermissionDefinition({ id: taken }),
        "PERMISSION_ID_ALREADY_EXISTS",
        400,
      );
      expect(duplicate.details).toEqual({ permission_id: taken });
      const missing = permissionTag("missing");
      const contained = await expectKnownError(
        admin.createTeamPermissionDefinition({ id: permissionTag("x"), containedPermissionIds: [missing] }),
        "CONTAINED_PERMISSION_NOT_FOUND",
        400,
      );
      expect(contained.details).toEqual({ permission_id: missing });
      await expectKnownError(
        admin.updateTeamPermissionDefinition(missing, { description: "?" }),
        "PERMISSION_NOT_FOUND",
        404,
      );
      const wrong = await expectKnownError(admin.deleteTeamPermissionDefinition(proj), "WRONG_PERMISSION_SCOPE", 404);
      expect(wrong.details).toEqual({ permission_id: proj, expected_scope: "team", actual_scope: "project" });
      await expectKnownError(admin.createTeamPermissionDefinition({ id: "Not Valid" }), "SCHEMA_ERROR", 400);
    });
  });

  describe("granted permissions", () => {
    it("grantPermission on a team member; the user sees it recursively (contained ids too), or directly", async () => {
      const target = getTarget();
      const admin = adminApp(target);
      const [reader, editor] = [permissionTag("g_reader"), permissionTag("g_editor")];
      await admin.createTeamPermissionDefinition({ id: reader, containedPermissionIds: ["$read_members"] });
      await admin.createTeamPermissionDefinition({ id: editor, containedPermissionIds: [reader, "$update_team"] });
      const { member, team, serverUser } = await memberOfNewTeam(target);
      await serverUser.grantPermission(team, editor);
      const me = await member.app.getUser({ or: "throw" });
      expect(await me.hasPermission(team, reader)).toBe(true);
      expect(await me.hasPermission(team, "$update_team")).toBe(true);
      expect(await me.getPermission(team, reader, { recursive: false })).toBeNull();
      expect((await me.listPermissions(team, { recursive: false })).map((p) => p.id).sort()).toEqual(
        [editor, "team_member"].sort(),
      );
      expect(await serverUser.hasPermission(team, editor)).toBe(true);
      // The grant is what lets the member rename the team.
      await (await me.getTeam(team.id))!.update({ displayName: "Granted" });
      await serverUser.revokePermission(team, editor);
      expect(await me.hasPermission(team, "$update_team")).toBe(false);
      await expectKnownError(serverUser.revokePermission(team, editor), "TEAM_PERMISSION_NOT_FOUND", 401);
    });

    it("refuses grants outside a membership or scope with TEAM_MEMBERSHIP_NOT_FOUND and WRONG_PERMISSION_SCOPE", async () => {
      const target = getTarget();
      const proj = permissionTag("scope_proj");
      await adminApp(target).createProjectPermissionDefinition({ id: proj });
      const { team, serverUser } = await memberOfNewTeam(target);
      await expectKnownError(serverUser.grantPermission(team, proj), "WRONG_PERMISSION_SCOPE", 404);
      await expectKnownError(serverUser.grantPermission(team, permissionTag("nothing")), "PERMISSION_NOT_FOUND", 404);
      const outsider = (await serverApp(target).getUser((await signedUpClient(target)).userId))!;
      await expectKnownError(outsider.grantPermission(team, "$read_members"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
      await expectKnownError(serverUser.grantPermission("team_member"), "WRONG_PERMISSION_SCOPE", 404);
    });

    it("project permissions: grant, has (recursively), revoke", async () => {
      const target = getTarget();
      const admin = adminApp(target);
      const [read, write] = [permissionTag("p_read"), permissionTag("p_write")];
      await admin.createProjectPermissionDefinition({ id: read });
      await admin.createProjectPermissionDefinition({ id: write, containedPermissionIds: [read] });
      const { app, userId } = await signedUpClient(target);
      const serverUser = (await serverApp(target).getUser(userId))!;
      await serverUser.grantPermission(write);
      const me = await app.getUser({ or: "throw" });
      expect(await me.hasPermission(read)).toBe(true);
      expect((await me.listPermissions({ recursive: false })).map((p) => p.id)).toEqual([write]);
      await serverUser.revokePermission(write);
      expect(await me.hasPermission(write)).toBe(false);
    });

    it("listTeamMemberPermissions gives every member's permissions in one call", async () => {
      const target = getTarget();
      const owner = await signedUpClient(target);
      const created = await owner.user.createTeam({ displayName: uniqueTag("members") });
      const { userId } = await signedUpClient(target);
      await (await serverApp(target).getTeam(created.id))!.addUser(userId);
      const direct = await serverApp(target).listTeamMemberPermissions(created.id);
      expect(direct.map((p) => `${p.userId}:${p.permissionId}`).sort()).toEqual(
        [`${owner.userId}:team_admin`, `${userId}:team_member`].sort(),
      );
      const all = await serverApp(target).listTeamMemberPermissions(created.id, { recursive: true });
      expect(
        all
          .filter((p) => p.userId === userId)
          .map((p) => p.permissionId)
          .sort(),
      ).toEqual(["$invite_members", "$read_members", "team_member"]);
    });

    it("follows a containment cycle to its end", async () => {
      const target = getTarget();
      const admin = adminApp(target);
      const [a, b] = [permissionTag("cyc_a"), permissionTag("cyc_b")];
      await admin.createTeamPermissionDefinition({ id: a });
      await admin.createTeamPermissionDefinition({ id: b, containedPermissionIds: [a] });
      await admin.updateTeamPermissionDefinition(a, { containedPermissionIds: [b] });
      const { member, team, serverUser } = await memberOfNewTeam(target);
      await serverUser.grantPermission(team, a);
      const ids = (await (await member.app.getUser({ or: "throw" })).listPermissions(team)).map((p) => p.id);
      expect(ids).toEqual(expect.arrayContaining([a, b]));
    });

    itIf(ownProjectNeed(getTarget()))("grants the user default permissions when a user is created", async () => {
      const target = await projectOfItsOwn(getTarget());
      const admin = adminApp(target);
      const welcome = permissionTag("welcome");
      await admin.createProjectPermissionDefinition({ id: welcome });
      await (await admin.getProject()).update({ config: { userDefaultPermissions: [{ id: welcome }] } });
      const { app } = await signedUpClient(target);
      expect(await (await app.getUser({ or: "throw" })).hasPermission(welcome)).toBe(true);
      const project = await adminApp(target).getProject();
      expect(project.config.userDefaultPermissions).toEqual([{ id: welcome }]);
    });
  });
}
