import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  adminProject,
  ownedProjectList,
  type AdminProjectJson,
  type InternalApiKeyFirstViewJson,
} from "@authsim/sdk/contract";
import {
  INTERNAL,
  START_MILLIS,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { internalOwner, ownerAdmin, type Owner } from "../../../test-support/admin.ts";

/**
 * Owned projects through the `internal` project (spec §6; protocol.md §5.9, §6.5, §8): create, list and transfer by a
 * dashboard user, and admin access to the new project with that user's admin access token.
 */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

async function create(owner: Owner, body: Record<string, unknown> = {}): Promise<AdminProjectJson> {
  const response = await api(provider, "/internal/projects", {
    headers: owner.headers,
    json: { display_name: "Mine", owner_team_id: owner.teamId, ...body },
  });
  return adminProject.parse(await expectJson(response, 201));
}
const list = async (owner: Owner) =>
  ownedProjectList.parse(await expectJson(await api(provider, "/internal/projects", { headers: owner.headers }))).items;

describe("owned projects", () => {
  it("creates a project owned by the user's team, with config, and lists it for its owners only", async () => {
    const owner = await internalOwner(provider);
    const project = await create(owner, {
      description: "mine",
      config: { sign_up_enabled: false, domains: [{ domain: "https://my.example.com", handler_path: "/handler" }] },
    });
    expect(project).toMatchObject({
      display_name: "Mine",
      description: "mine",
      owner_team_id: owner.teamId,
      is_production_mode: false,
      created_at_millis: START_MILLIS,
    });
    expect(project.config).toMatchObject({
      sign_up_enabled: false,
      domains: [{ domain: "https://my.example.com", handler_path: "/handler" }],
    });
    expect((await list(owner)).map((p) => p.id)).toEqual([project.id]);
    const stranger = await internalOwner(provider);
    expect(await list(stranger)).toEqual([]);
  });

  it("answers as upstream does: an empty description when none is given or it is cleared, no is_development_environment", async () => {
    const owner = await internalOwner(provider);
    const project = await create(owner, { is_development_environment: true });
    expect(project.description).toBe("");
    expect(project).not.toHaveProperty("is_development_environment");
    const admin = ownerAdmin(owner, project.id);
    const cleared = await expectJson<AdminProjectJson>(
      await api(provider, "/internal/projects/current", {
        method: "PATCH",
        headers: admin,
        json: { description: null },
      }),
    );
    expect(cleared.description).toBe("");
  });

  it("creates no keys: the owner makes them with an admin access token, and they work", async () => {
    const owner = await internalOwner(provider);
    const project = await create(owner);
    expect([...provider.store.read.apiKeySets.values()].filter((k) => k.projectId === project.id)).toEqual([]);
    const current = adminProject.parse(
      await expectJson(await api(provider, "/internal/projects/current", { headers: ownerAdmin(owner, project.id) })),
    );
    expect(current.id).toBe(project.id);
    const keys = await expectJson<InternalApiKeyFirstViewJson>(
      await api(provider, "/internal/api-keys", {
        headers: ownerAdmin(owner, project.id),
        json: {
          description: "first",
          expires_at_millis: START_MILLIS + 86_400_000,
          has_publishable_client_key: true,
          has_secret_server_key: false,
          has_super_secret_admin_key: false,
        },
      }),
    );
    const view = await expectJson<{ id: string }>(
      await api(provider, "/projects/current", {
        headers: { accessType: "client", projectId: project.id, publishableClientKey: keys.publishable_client_key! },
      }),
    );
    expect(view.id).toBe(project.id);
  });

  it("refuses a team the user is not in, and an unknown team", async () => {
    const owner = await internalOwner(provider);
    const other = await internalOwner(provider);
    const body = await expectKnownError(
      await api(provider, "/internal/projects", {
        headers: owner.headers,
        json: { display_name: "X", owner_team_id: other.teamId },
      }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      404,
    );
    expect(body.details).toEqual({ team_id: other.teamId, user_id: owner.user.user_id });
    const unknown = "0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b";
    await expectKnownError(
      await api(provider, "/internal/projects", {
        headers: owner.headers,
        json: { display_name: "X", owner_team_id: unknown },
      }),
      "TEAM_NOT_FOUND",
      404,
    );
  });

  it("needs a signed-in user (asked first, as upstream's CRUD does) of the internal project (EXPECTED_INTERNAL_PROJECT)", async () => {
    // No user on another project: the user is what upstream asks for first.
    await expectKnownError(
      await api(provider, "/internal/projects", { headers: client() }),
      "USER_AUTHENTICATION_REQUIRED",
      401,
    );
    await expectKnownError(
      await api(provider, "/internal/projects", {
        headers: client(),
        json: { display_name: "X", owner_team_id: "00000000-0000-4000-8000-000000000000" },
      }),
      "USER_AUTHENTICATION_REQUIRED",
      401,
    );
    // A user of another project: that project is not the internal one.
    const other = await signUp(provider);
    await expectKnownError(
      await api(provider, "/internal/projects", { headers: client({ accessToken: other.access_token }) }),
      "EXPECTED_INTERNAL_PROJECT",
      401,
    );
    await expectKnownError(
      await api(provider, "/internal/projects", { headers: client({}, INTERNAL) }),
      "USER_AUTHENTICATION_REQUIRED",
      401,
    );
  });

  it("transfers a project to another team of the user; the old team's members lose admin access", async () => {
    const owner = await internalOwner(provider);
    const project = await create(owner);
    const second = await expectJson<{ id: string }>(
      await api(provider, "/teams", {
        headers: owner.headers,
        json: { display_name: "Second", creator_user_id: "me" },
      }),
      201,
    );
    await expectJson(
      await api(provider, "/internal/projects/transfer", {
        headers: owner.headers,
        json: { project_id: project.id, new_team_id: second.id },
      }),
    );
    expect((await list(owner))[0]!.owner_team_id).toBe(second.id);
    // Leaving the new team ends the user's admin access to the project.
    await expectJson(
      await api(provider, `/team-memberships/${second.id}/me`, { method: "DELETE", headers: owner.headers }),
    );
    await expectKnownError(
      await api(provider, "/internal/projects/current", { headers: ownerAdmin(owner, project.id) }),
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
      401,
    );
  });

  it('answers the transfer with success as the string "true", as upstream\'s route does', async () => {
    const owner = await internalOwner(provider);
    const project = await create(owner);
    const second = await expectJson<{ id: string }>(
      await api(provider, "/teams", {
        headers: owner.headers,
        json: { display_name: "Second", creator_user_id: "me" },
      }),
      201,
    );
    const answer = await expectJson(
      await api(provider, "/internal/projects/transfer", {
        headers: owner.headers,
        json: { project_id: project.id, new_team_id: second.id },
      }),
    );
    expect(answer).toEqual({ success: "true" });
  });

  it("refuses in upstream's order: an unknown project, then membership and team_admin of the owner team, then membership of the new one", async () => {
    const owner = await internalOwner(provider);
    const other = await internalOwner(provider);
    const transfer = (who: Owner, project_id: string, new_team_id: string) =>
      api(provider, "/internal/projects/transfer", { headers: who.headers, json: { project_id, new_team_id } });
    const missing = "0d0d0d0d-0d0d-4d0d-8d0d-0d0d0d0d0d0d";
    expect(
      (await expectKnownError(await transfer(owner, missing, owner.teamId), "PROJECT_NOT_FOUND", 404)).details,
    ).toEqual({ project_id: missing });
    const project = await create(owner);
    // Not in the owner team at all.
    await expectKnownError(await transfer(other, project.id, other.teamId), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    // A plain member of the owner team (no team_admin).
    await expectJson(
      await api(provider, `/team-memberships/${owner.teamId}/${other.user.user_id}`, {
        headers: server({}, INTERNAL),
        json: {},
      }),
      201,
    );
    const body = await expectKnownError(
      await transfer(other, project.id, other.teamId),
      "TEAM_PERMISSION_REQUIRED",
      401,
    );
    expect(body.details).toEqual({ team_id: owner.teamId, user_id: other.user.user_id, permission_id: "team_admin" });
    // The owner, to a team they are not in.
    await expectKnownError(await transfer(owner, project.id, other.teamId), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect((await list(owner))[0]!.owner_team_id).toBe(owner.teamId);
  });
});
