import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApiKeyType } from "@authsim/sdk/contract";
import { parseApiKeySecret } from "../../auth/api-key-format.ts";
import { asClient, asServer, devSeedWith, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import {
  assertClientMayUseApiKeys,
  checkApiKey,
  createApiKey,
  listApiKeys,
  requireApiKey,
  teamOwner,
  updateApiKey,
  userKeyOwner,
  userOwner,
} from "./api-keys.ts";
import { addTeamMember } from "../teams/team-members.ts";
import { grantTeamPermission } from "../teams/permission-grants.ts";
import { createTeam } from "../teams/teams.ts";
import { deleteUser } from "../users/users.ts";

/** User and team API keys (spec §3, §4 validity, §6; protocol.md §5.8), at the ops' seam. */

const HOUR = 3_600_000;

async function userWithKey(seam: OpSeam, body: { is_public?: boolean; expires_at_millis?: number | null } = {}) {
  const user = await seam.addUser();
  const key = await seam.ok((ctx) =>
    createApiKey(ctx, user.projectId, userOwner(user), { description: "ci", expires_at_millis: null, ...body }),
  );
  return { user, key };
}

describe("createApiKey, listApiKeys", () => {
  it("mints a secret in the real format naming the key, and lists a user's keys newest first", async () => {
    const seam = opSeam();
    const { user, key } = await userWithKey(seam);
    expect(parseApiKeySecret(key.value)).toEqual({ id: key.id, type: "user", isPublic: false, isCloudVersion: false });
    seam.clock.advance(1_000);
    const second = await seam.ok((ctx) =>
      createApiKey(ctx, user.projectId, userOwner(user), {
        description: "two",
        expires_at_millis: null,
        is_public: true,
      }),
    );
    expect(parseApiKeySecret(second.value)).toMatchObject({ type: "user", isPublic: true });
    expect((await seam.ok((ctx) => listApiKeys(ctx, user.projectId, userOwner(user)))).map((k) => k.id)).toEqual([
      second.id,
      key.id,
    ]);
  });
});

describe("checkApiKey", () => {
  it("finds a key by its secret; an unknown secret is API_KEY_NOT_FOUND, the other type WRONG_API_KEY_TYPE", async () => {
    const seam = opSeam();
    const { user, key } = await userWithKey(seam);
    expect((await seam.ok((ctx) => checkApiKey(ctx, user.projectId, "user", key.value))).id).toBe(key.id);
    await seam.refuses((ctx) => checkApiKey(ctx, user.projectId, "user", "sk_user_not-a-key"), "API_KEY_NOT_FOUND");
    expect(
      (await seam.refuses((ctx) => checkApiKey(ctx, user.projectId, "team", key.value), "WRONG_API_KEY_TYPE")).details,
    ).toEqual({ expected_type: "team", actual_type: "user" });
  });

  it("is valid until just after its expiry and until revoked; expired is reported before revoked", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.integer({ min: 0, max: 10 * HOUR }), { nil: null }),
        fc.boolean(),
        fc.integer({ min: 0, max: 11 * HOUR }),
        async (expiresIn, revoke, wait) => {
          const start = seam.clock.now();
          const expiresAt = expiresIn === null ? null : start + expiresIn;
          const key = await seam.ok((ctx) =>
            createApiKey(ctx, user.projectId, userOwner(user), { description: "p", expires_at_millis: expiresAt }),
          );
          if (revoke)
            await seam.ok((ctx) => updateApiKey(ctx, ctx.tables.projectApiKeys.get(key.id)!, { revoked: true }));
          seam.clock.advance(wait);
          const expired = expiresAt !== null && expiresAt < seam.clock.now();
          const check = (ctx: Parameters<typeof checkApiKey>[0]) => checkApiKey(ctx, user.projectId, "user", key.value);
          if (expired) await seam.refuses(check, "API_KEY_EXPIRED");
          else if (revoke) await seam.refuses(check, "API_KEY_REVOKED");
          else expect((await seam.run(check)).ok).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("dies with its user", async () => {
    const seam = opSeam();
    const { user, key } = await userWithKey(seam);
    await seam.ok((ctx) => deleteUser(ctx, ctx.tables.users.get(user.id)!));
    await seam.refuses((ctx) => checkApiKey(ctx, user.projectId, "user", key.value), "API_KEY_NOT_FOUND");
  });
});

describe("updateApiKey", () => {
  it("changes description and expiry, revokes once keeping the first time, and refuses revoking a public key", async () => {
    const seam = opSeam();
    const { key } = await userWithKey(seam);
    const start = seam.clock.now();
    expect(
      await seam.ok((ctx) => updateApiKey(ctx, key, { description: "renamed", expires_at_millis: start + HOUR })),
    ).toMatchObject({ description: "renamed", expiresAtMillis: start + HOUR });
    await seam.ok((ctx) => updateApiKey(ctx, ctx.tables.projectApiKeys.get(key.id)!, { revoked: true }));
    seam.clock.advance(1_000);
    expect(
      (await seam.ok((ctx) => updateApiKey(ctx, ctx.tables.projectApiKeys.get(key.id)!, { revoked: true })))
        .manuallyRevokedAtMillis,
    ).toBe(start);
    const { key: pub } = await userWithKey(seam, { is_public: true });
    await seam.refuses(
      (ctx) => updateApiKey(ctx, pub, { revoked: true, description: "x" }),
      "PUBLIC_API_KEY_CANNOT_BE_REVOKED",
    );
  });
});

describe("who may see a key", () => {
  it("a client only its own user's keys (plain 403 for another's), a signed-out client none; a key of the other type is not found", async () => {
    const seam = opSeam();
    const { user, key } = await userWithKey(seam);
    const other = await seam.addUser();
    expect((await seam.ok(asClient(user), (ctx) => requireApiKey(ctx, ctx.auth, "user", key.id))).id).toBe(key.id);
    expect(
      (await seam.refuses(asClient(other), (ctx) => requireApiKey(ctx, ctx.auth, "user", key.id), 403)).message,
    ).toBe("Client can only manage their own api keys");
    await seam.refuses(
      asClient(),
      (ctx) => requireApiKey(ctx, ctx.auth, "user", key.id),
      "USER_AUTHENTICATION_REQUIRED",
    );
    await seam.refuses(asServer(), (ctx) => requireApiKey(ctx, ctx.auth, "team", key.id), "API_KEY_NOT_FOUND");
    await seam.refuses(
      asClient(user),
      (ctx) => requireApiKey(ctx, ctx.auth, "user", "0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3"),
      "API_KEY_NOT_FOUND",
    );
  });

  it("team keys: the team must exist; a client without $manage_api_keys in it (a plain member, an outsider) finds neither it nor its keys", async () => {
    const seam = opSeam();
    const [member, outsider, plain] = [await seam.addUser(), await seam.addUser(), await seam.addUser()];
    const team = await seam.ok(asServer(), (ctx) => createTeam(ctx, { display_name: "Keys" }));
    await seam.ok(asServer(), (ctx) => addTeamMember(ctx, team.id, member.id));
    await seam.ok(asServer(), (ctx) => addTeamMember(ctx, team.id, plain.id));
    await seam.ok((ctx) => grantTeamPermission(ctx, team.projectId, team.id, member.id, "$manage_api_keys"));
    await seam.refuses(asClient(plain), (ctx) => teamOwner(ctx, ctx.auth, team.id), "API_KEY_NOT_FOUND");
    // Before the team is looked up: an unknown team is no different to a client.
    await seam.refuses(
      asClient(member),
      (ctx) => teamOwner(ctx, ctx.auth, "5d0f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b"),
      "API_KEY_NOT_FOUND",
    );
    const key = await seam.ok(asClient(member), (ctx) =>
      createApiKey(ctx, team.projectId, teamOwner(ctx, ctx.auth, team.id), {
        description: "deploys",
        expires_at_millis: null,
      }),
    );
    expect(parseApiKeySecret(key.value)).toMatchObject({ type: "team" });
    await seam.refuses(
      asServer(),
      (ctx) => teamOwner(ctx, ctx.auth, "5d0f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b"),
      "TEAM_NOT_FOUND",
    );
    await seam.refuses(asClient(outsider), (ctx) => teamOwner(ctx, ctx.auth, team.id), "API_KEY_NOT_FOUND");
    await seam.refuses(asClient(outsider), (ctx) => requireApiKey(ctx, ctx.auth, "team", key.id), "API_KEY_NOT_FOUND");
  });

  it("clients use a kind of key only when the project allows it (plain 400); servers always", async () => {
    for (const [type, flag, text] of [
      ["user", "allow_user_api_keys", "User API keys are not enabled for this project."],
      ["team", "allow_team_api_keys", "Team API keys are not enabled for this project."],
    ] as [ApiKeyType, string, string][]) {
      const seam = opSeam({ seed: devSeedWith({ [flag]: false }) });
      const user = await seam.addUser();
      expect(
        (await seam.refuses(asClient(user), (ctx) => assertClientMayUseApiKeys(ctx.auth, type), 400)).message,
      ).toBe(text);
      expect((await seam.run(asServer(), (ctx) => assertClientMayUseApiKeys(ctx.auth, type))).ok).toBe(true);
    }
  });
});

describe("userKeyOwner", () => {
  it("is the named user's keys: a client's own (`me` or its id), anyone's for a server", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    expect(await seam.ok(asClient(me), (ctx) => userKeyOwner(ctx.auth, ctx, "me"))).toEqual(userOwner(me));
    expect(await seam.ok(asClient(me), (ctx) => userKeyOwner(ctx.auth, ctx, me.id))).toEqual(userOwner(me));
    expect(await seam.ok(asServer(), (ctx) => userKeyOwner(ctx.auth, ctx, other.id))).toEqual(userOwner(other));
  });

  it("refuses a client naming another user with upstream's own 403, and a server naming no user of the project", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    expect((await seam.refuses(asClient(me), (ctx) => userKeyOwner(ctx.auth, ctx, other.id), 403)).message).toBe(
      "Client can only manage their own api keys",
    );
    await seam.refuses(asClient(), (ctx) => userKeyOwner(ctx.auth, ctx, "me"), "CANNOT_GET_OWN_USER_WITHOUT_USER");
    await seam.refuses(
      asServer(),
      (ctx) => userKeyOwner(ctx.auth, ctx, "7d3f7c1e-0b6a-4c8e-9f11-2a5b6c7d8e9f"),
      "USER_NOT_FOUND",
    );
  });
});
