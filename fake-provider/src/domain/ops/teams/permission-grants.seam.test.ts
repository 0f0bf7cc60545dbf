import { describe, expect, it } from "vitest";
import { asClient, asServer, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import {
  grantProjectPermission,
  grantTeamPermission,
  listProjectPermissions,
  listTeamPermissions,
  revokeProjectPermission,
  revokeTeamPermission,
} from "./permission-grants.ts";
import { createDefinition } from "./permissions.ts";
import { updateAdminProject } from "../projects/project-admin.ts";
import { addTeamMember } from "./team-members.ts";
import { createTeam } from "./teams.ts";
import { deleteUser, updateUser } from "../users/users.ts";

/** Team and project permission grants: granting, revoking, listing, defaults at creation (spec §6; protocol.md §5.4). */

async function teamWithMember(seam: OpSeam) {
  const owner = await seam.addUser();
  const member = await seam.addUser();
  const team = await seam.ok(asClient(owner), (ctx) => createTeam(ctx, { display_name: "T" }));
  await seam.ok(asServer(), (ctx) => addTeamMember(ctx, team.id, member.id));
  return { owner, member, team };
}
const projectIds = async (seam: OpSeam, userId: string, recursive = false) =>
  (await seam.ok((ctx) => listProjectPermissions(ctx, seam.project().id, { userId, recursive }))).map((g) => g.id);

describe("team grants", () => {
  it("grant needs a team-scope definition and the membership; revoking what was not granted directly is TEAM_PERMISSION_NOT_FOUND", async () => {
    const seam = opSeam();
    const p = seam.project().id;
    const { owner, member, team } = await teamWithMember(seam);
    await seam.ok((ctx) => createDefinition(ctx, p, "project", { id: "proj" }));
    const outsider = await seam.addUser();
    expect(
      (await seam.refuses((ctx) => grantTeamPermission(ctx, p, team.id, member.id, "proj"), "WRONG_PERMISSION_SCOPE"))
        .details,
    ).toEqual({
      permission_id: "proj",
      expected_scope: "team",
      actual_scope: "project",
    });
    await seam.refuses((ctx) => grantTeamPermission(ctx, p, team.id, member.id, "ghost"), "PERMISSION_NOT_FOUND");
    expect(
      (
        await seam.refuses(
          (ctx) => grantTeamPermission(ctx, p, team.id, outsider.id, "$read_members"),
          "TEAM_MEMBERSHIP_NOT_FOUND",
        )
      ).details,
    ).toEqual({ team_id: team.id, user_id: outsider.id });
    expect(await seam.ok((ctx) => grantTeamPermission(ctx, p, team.id, member.id, "$update_team"))).toEqual({
      id: "$update_team",
      teamId: team.id,
      userId: member.id,
    });
    await seam.ok((ctx) => revokeTeamPermission(ctx, team.id, member.id, "team_member"));
    const missing = await seam.refuses(
      (ctx) => revokeTeamPermission(ctx, team.id, member.id, "$read_members"),
      "TEAM_PERMISSION_NOT_FOUND",
    );
    expect(missing.details).toEqual({ team_id: team.id, user_id: member.id, permission_id: "$read_members" });
    // The grant is looked for, not the definition: an id nobody defined is a missing grant too, as in the real handler.
    await seam.refuses((ctx) => revokeTeamPermission(ctx, team.id, member.id, "ghost"), "TEAM_PERMISSION_NOT_FOUND");
    const whole = await seam.ok((ctx) => listTeamPermissions(ctx, p, { teamId: team.id, recursive: false }));
    expect(whole.map((g) => [g.userId, g.id]).sort()).toEqual(
      [
        [member.id, "$update_team"],
        [owner.id, "team_admin"],
      ].sort(),
    );
  });
});

describe("project grants", () => {
  it("grant, list directly or recursively, revoke; the catalogue's errors for the wrong scope, unknown ids and a missing grant", async () => {
    const seam = opSeam();
    const p = seam.project().id;
    const user = await seam.addUser();
    await seam.ok((ctx) => createDefinition(ctx, p, "project", { id: "read_docs" }));
    await seam.ok((ctx) =>
      createDefinition(ctx, p, "project", { id: "write_docs", contained_permission_ids: ["read_docs"] }),
    );
    expect(await seam.ok((ctx) => grantProjectPermission(ctx, p, user.id, "write_docs"))).toEqual({
      id: "write_docs",
      userId: user.id,
    });
    expect([await projectIds(seam, user.id), await projectIds(seam, user.id, true)]).toEqual([
      ["write_docs"],
      ["read_docs", "write_docs"],
    ]);
    await seam.refuses((ctx) => grantProjectPermission(ctx, p, user.id, "team_member"), "WRONG_PERMISSION_SCOPE");
    await seam.refuses((ctx) => grantProjectPermission(ctx, p, user.id, "ghost"), "PERMISSION_NOT_FOUND");
    await seam.refuses((ctx) => revokeProjectPermission(ctx, user.id, "read_docs"), "PERMISSION_NOT_FOUND");
    await seam.refuses((ctx) => revokeProjectPermission(ctx, user.id, "team_member"), "PERMISSION_NOT_FOUND");
    await seam.ok((ctx) => revokeProjectPermission(ctx, user.id, "write_docs"));
    expect(await projectIds(seam, user.id)).toEqual([]);
  });

  it("the user defaults go to users created afterwards, whatever the path, not to existing ones nor on update", async () => {
    const seam = opSeam();
    const p = seam.project().id;
    const before = await seam.addUser();
    await seam.ok((ctx) => createDefinition(ctx, p, "project", { id: "member_area" }));
    await seam.ok((ctx) =>
      updateAdminProject(ctx, seam.project(), { config: { user_default_permissions: [{ id: "member_area" }] } }),
    );
    const after = await seam.addUser();
    const anonymous = await seam.addUser({ is_anonymous: true });
    await seam.ok((ctx) => updateUser(ctx, ctx.tables.users.get(before.id)!, { display_name: "B" }));
    expect([
      await projectIds(seam, after.id),
      await projectIds(seam, anonymous.id),
      await projectIds(seam, before.id),
    ]).toEqual([["member_area"], ["member_area"], []]);
  });

  it("a deleted user's project grants go with them", async () => {
    const seam = opSeam();
    const p = seam.project().id;
    const user = await seam.addUser();
    await seam.ok((ctx) => createDefinition(ctx, p, "project", { id: "proj" }));
    await seam.ok((ctx) => grantProjectPermission(ctx, p, user.id, "proj"));
    await seam.ok((ctx) => deleteUser(ctx, ctx.tables.users.get(user.id)!));
    expect(await seam.ok((ctx) => listProjectPermissions(ctx, p, { recursive: false }))).toEqual([]);
  });
});
