import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { systemPermissionIds } from "@authsim/sdk/contract";
import { asClient, asServer, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { grantTeamPermission, listTeamPermissions } from "./permission-grants.ts";
import {
  createDefinition,
  deleteDefinition,
  expandPermissions,
  listDefinitions,
  updateDefinition,
} from "./permissions.ts";
import { addTeamMember } from "./team-members.ts";
import { createTeam } from "./teams.ts";

/** Permission definitions in two scopes, system permissions, containment, renames and deletes (spec §6; protocol.md §5.4). */

const ids = async (seam: OpSeam, scope: "team" | "project") =>
  (await seam.ok((ctx) => listDefinitions(ctx, seam.project().id, scope))).map((d) => d.id);

async function teamWithMember(seam: OpSeam) {
  const owner = await seam.addUser();
  const member = await seam.addUser();
  const team = await seam.ok(asClient(owner), (ctx) => createTeam(ctx, { display_name: "T" }));
  await seam.ok(asServer(), (ctx) => addTeamMember(ctx, team.id, member.id));
  return { owner, member, team };
}

describe("definitions", () => {
  it("a project starts with the system permissions and team_admin / team_member in team scope, nothing in project scope", async () => {
    const seam = opSeam();
    expect(await ids(seam, "team")).toEqual([...[...systemPermissionIds].sort(), "team_admin", "team_member"]);
    expect(await ids(seam, "project")).toEqual([]);
  });

  it("refuses an id taken in either scope, contained ids unknown or of the other scope; nothing is written", async () => {
    const seam = opSeam();
    const p = seam.project().id;
    await seam.ok((ctx) => createDefinition(ctx, p, "team", { id: "editor" }));
    await seam.ok((ctx) => createDefinition(ctx, p, "project", { id: "proj" }));
    expect(
      (await seam.refuses((ctx) => createDefinition(ctx, p, "team", { id: "editor" }), "PERMISSION_ID_ALREADY_EXISTS"))
        .details,
    ).toEqual({ permission_id: "editor" });
    await seam.refuses((ctx) => createDefinition(ctx, p, "project", { id: "editor" }), "PERMISSION_ID_ALREADY_EXISTS");
    expect(
      (
        await seam.refuses(
          (ctx) => createDefinition(ctx, p, "team", { id: "a", contained_permission_ids: ["nope"] }),
          "CONTAINED_PERMISSION_NOT_FOUND",
        )
      ).details,
    ).toEqual({ permission_id: "nope" });
    await seam.refuses(
      (ctx) => createDefinition(ctx, p, "team", { id: "b", contained_permission_ids: ["proj"] }),
      "CONTAINED_PERMISSION_NOT_FOUND",
    );
    // System permissions are team scope only.
    await seam.refuses(
      (ctx) => createDefinition(ctx, p, "project", { id: "c", contained_permission_ids: ["$read_members"] }),
      "CONTAINED_PERMISSION_NOT_FOUND",
    );
  });

  it("updates containment and description, cycles allowed; an unknown id is PERMISSION_NOT_FOUND, the other scope's WRONG_PERMISSION_SCOPE", async () => {
    const seam = opSeam();
    const p = seam.project().id;
    await seam.ok((ctx) => createDefinition(ctx, p, "team", { id: "a" }));
    await seam.ok((ctx) => createDefinition(ctx, p, "team", { id: "b", contained_permission_ids: ["a"] }));
    expect(
      await seam.ok((ctx) =>
        updateDefinition(ctx, p, "team", "a", { contained_permission_ids: ["b", "a"], description: "loop" }),
      ),
    ).toMatchObject({ description: "loop", containedPermissionIds: ["b", "a"] });
    await seam.ok((ctx) => createDefinition(ctx, p, "project", { id: "proj" }));
    expect(
      (await seam.refuses((ctx) => updateDefinition(ctx, p, "team", "ghost", {}), "PERMISSION_NOT_FOUND")).details,
    ).toEqual({ permission_id: "ghost" });
    const wrong = await seam.refuses(
      (ctx) => updateDefinition(ctx, p, "team", "proj", { description: "x" }),
      "WRONG_PERMISSION_SCOPE",
    );
    expect(wrong.details).toEqual({ permission_id: "proj", expected_scope: "team", actual_scope: "project" });
    await seam.refuses((ctx) => deleteDefinition(ctx, p, "team", "proj"), "WRONG_PERMISSION_SCOPE");
    await seam.refuses((ctx) => deleteDefinition(ctx, p, "project", "ghost"), "PERMISSION_NOT_FOUND");
  });

  it("a rename carries grants, containments and the project defaults along; renaming onto a taken id changes nothing", async () => {
    const seam = opSeam();
    const p = seam.project().id;
    const { owner, team } = await teamWithMember(seam);
    await seam.ok((ctx) =>
      createDefinition(ctx, p, "team", { id: "wrapper", contained_permission_ids: ["team_admin"] }),
    );
    await seam.ok((ctx) => updateDefinition(ctx, p, "team", "team_admin", { id: "owner" }));
    expect(
      (
        await seam.ok((ctx) => listTeamPermissions(ctx, p, { teamId: team.id, userId: owner.id, recursive: false }))
      ).map((g) => g.id),
    ).toEqual(["owner"]);
    expect(
      [...seam.tables.permissionDefinitions.values()].find((d) => d.id === "wrapper")?.containedPermissionIds,
    ).toEqual(["owner"]);
    expect(seam.project().config.team_creator_default_permissions).toEqual([{ id: "owner" }]);
    await seam.refuses(
      (ctx) => updateDefinition(ctx, p, "team", "owner", { id: "team_member" }),
      "PERMISSION_ID_ALREADY_EXISTS",
    );
  });

  it("a delete takes its grants, its mentions in other definitions and in the defaults", async () => {
    const seam = opSeam();
    const p = seam.project().id;
    const { member, team } = await teamWithMember(seam);
    await seam.ok((ctx) =>
      createDefinition(ctx, p, "team", { id: "wrapper", contained_permission_ids: ["team_member"] }),
    );
    await seam.ok((ctx) => deleteDefinition(ctx, p, "team", "team_member"));
    expect(
      await seam.ok((ctx) => listTeamPermissions(ctx, p, { teamId: team.id, userId: member.id, recursive: true })),
    ).toEqual([]);
    expect(
      [...seam.tables.permissionDefinitions.values()].find((d) => d.id === "wrapper")?.containedPermissionIds,
    ).toEqual([]);
    expect(seam.project().config).toMatchObject({
      team_member_default_permissions: [],
      team_creator_default_permissions: [{ id: "team_admin" }],
    });
  });
});

describe("expandPermissions", () => {
  it("is exactly what the grants reach through containment, on any graph of definitions, cycles included", async () => {
    const NAMES = ["p0", "p1", "p2", "p3", "p4", "p5"];
    const graph = fc.array(fc.subarray(NAMES), { minLength: NAMES.length, maxLength: NAMES.length });
    await fc.assert(
      fc.asyncProperty(graph, fc.subarray(NAMES), async (edges, granted) => {
        const seam = opSeam();
        const p = seam.project().id;
        for (const name of NAMES) await seam.ok((ctx) => createDefinition(ctx, p, "project", { id: name }));
        for (const [i, contained] of edges.entries())
          await seam.ok((ctx) =>
            updateDefinition(ctx, p, "project", NAMES[i]!, { contained_permission_ids: contained }),
          );
        // The model: a breadth-first walk of the same edges.
        const reached = new Set<string>();
        const queue = [...granted];
        while (queue.length > 0) {
          const id = queue.shift()!;
          if (reached.has(id)) continue;
          reached.add(id);
          queue.push(...edges[NAMES.indexOf(id)]!);
        }
        expect([...(await seam.ok((ctx) => expandPermissions(ctx, p, granted)))].sort()).toEqual([...reached].sort());
      }),
      { numRuns: 25 },
    );
  });

  it("counts a team member's grant and everything it contains, through the system permissions", async () => {
    const seam = opSeam();
    const p = seam.project().id;
    const { member, team } = await teamWithMember(seam);
    await seam.ok((ctx) => createDefinition(ctx, p, "team", { id: "x" }));
    await seam.ok((ctx) => createDefinition(ctx, p, "team", { id: "y", contained_permission_ids: ["x"] }));
    await seam.ok((ctx) => updateDefinition(ctx, p, "team", "x", { contained_permission_ids: ["y"] }));
    await seam.ok((ctx) => grantTeamPermission(ctx, p, team.id, member.id, "x"));
    expect(
      (
        await seam.ok((ctx) => listTeamPermissions(ctx, p, { teamId: team.id, userId: member.id, recursive: true }))
      ).map((g) => g.id),
    ).toEqual(["$invite_members", "$read_members", "team_member", "x", "y"]);
  });
});
