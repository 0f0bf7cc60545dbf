import { describe, expect, it } from "vitest";
import { admin, api, expectJson, expectKnownError, server } from "../../../test-support/api.ts";
import { useConfigProvider } from "../../../test-support/admin.ts";

/**
 * The config's `rbac` keys through the override endpoints (config-rbac.ts): written at the branch or environment level
 * as upstream takes them, effective in the permission endpoints at once, refused at the project level as upstream's
 * schema refuses them.
 */

const { provider, patch: patchOverride, getConfig } = useConfigProvider();
const rbac = async () =>
  (await getConfig()).rbac as {
    permissions: Record<string, unknown>;
    defaultPermissions: Record<string, unknown>;
  };
const newUser = async () =>
  (await expectJson<{ id: string }>(await api(provider(), "/users", { headers: server(), json: {} }), 201)).id;
const grant = (userId: string, permissionId: string) =>
  api(provider(), `/project-permissions/${userId}/${permissionId}`, { method: "POST", headers: admin(), json: {} });
const projectPermissionsOf = async (userId: string) =>
  (
    await expectJson<{ items: { id: string }[] }>(
      await api(provider(), `/project-permissions?user_id=${userId}`, { headers: server() }),
    )
  ).items.map((p) => p.id);

describe("rbac through a config override", () => {
  it("defines a project permission that can then be granted and revoked (upstream's external-db-sync e2e tests)", async () => {
    const user = await newUser();
    await expectKnownError(await grant(user, "test_perm"), "PERMISSION_NOT_FOUND", 404);
    expect(await expectJson(await patchOverride({ "rbac.permissions": { test_perm: { scope: "project" } } }))).toEqual({
      success: true,
    });
    expect(await expectJson(await grant(user, "test_perm"), 201)).toMatchObject({ id: "test_perm", user_id: user });
    expect(await projectPermissionsOf(user)).toEqual(["test_perm"]);
    await expectJson(
      await api(provider(), `/project-permissions/${user}/test_perm`, { method: "DELETE", headers: admin() }),
    );
    expect(await projectPermissionsOf(user)).toEqual([]);
  });

  it("a whole `rbac.permissions` replaces the project's definitions, a dotted key changes one, null removes one", async () => {
    expect(Object.keys((await rbac()).permissions).sort()).toEqual(["team_admin", "team_member"]);
    await expectJson(await patchOverride({ "rbac.permissions": { a: { scope: "team", description: "A" } } }));
    expect((await rbac()).permissions).toEqual({ a: { scope: "team", description: "A", containedPermissionIds: {} } });
    await expectJson(
      await patchOverride(
        { rbac: { permissions: { b: { scope: "project", containedPermissionIds: { c: true } } } } },
        "branch",
      ),
    );
    expect((await rbac()).permissions).toEqual({
      b: { scope: "project", containedPermissionIds: { c: true } },
    });
    await expectJson(
      await patchOverride({ "rbac.permissions.b.description": "B", "rbac.permissions.d": { scope: "team" } }),
    );
    expect((await rbac()).permissions).toEqual({
      b: { scope: "project", description: "B", containedPermissionIds: { c: true } },
      d: { scope: "team", containedPermissionIds: {} },
    });
    await expectJson(await patchOverride({ "rbac.permissions.b": null }));
    expect(Object.keys((await rbac()).permissions)).toEqual(["d"]);
    // A team permission defined so is one of the team's (the system ones stay).
    const teamPermissions = await expectJson<{ items: { id: string }[] }>(
      await api(provider(), "/team-permission-definitions", { headers: admin() }),
    );
    expect(teamPermissions.items.map((p) => p.id)).toContain("d");
  });

  it("default permissions through the override are granted on sign-up", async () => {
    await expectJson(
      await patchOverride({
        "rbac.permissions.reader": { scope: "project" },
        "rbac.defaultPermissions.signUp": { reader: true },
      }),
    );
    expect((await rbac()).defaultPermissions).toMatchObject({ signUp: { reader: true } });
    expect(await projectPermissionsOf(await newUser())).toEqual(["reader"]);
  });

  it("is refused at the project level, whose schema has no rbac, with upstream's message, and nothing changes", async () => {
    const before = await rbac();
    const refused = await patchOverride({ "rbac.permissions": { x: { scope: "project" } } }, "project");
    expect([refused.status, await refused.text()]).toEqual([
      400,
      'The key "rbac.permissions" is not valid (nested object not found in schema: "rbac").',
    ]);
    expect(await rbac()).toEqual(before);
  });
});
