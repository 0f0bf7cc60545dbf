import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { createFakeProvider, type FakeProvider } from "@authsim/fake-provider";
import { manualClock, seededRandom } from "@authsim/sdk/runtime";

/**
 * Model-based test (issue 10): random sequences of user, team, membership and permission commands run against the
 * fake over its HTTP API and against a deliberately simple model (sets of ids and pairs). After every command the
 * provider's memberships and direct team permissions must equal the model's, and every refusal must be the
 * catalogue error the model predicts.
 */
interface Model {
  users: string[];
  teams: string[];
  members: Set<string>; // `${team}:${user}`
  grants: Set<string>; // `${team}:${user}:${perm}`
  memberDefaults: string[];
}

interface Real {
  provider: FakeProvider;
}

const PERMS = ["model_a", "model_b"] as const;
const headers = (type: "server" | "admin") => ({
  "content-type": "application/json",
  "x-stack-access-type": type,
  "x-stack-project-id": dev.id,
  ...(type === "server"
    ? { "x-stack-secret-server-key": dev.keys.secret_server_key }
    : { "x-stack-super-secret-admin-key": dev.keys.super_secret_admin_key }),
});

async function call(real: Real, method: string, path: string, body?: unknown, type: "server" | "admin" = "server") {
  const response = await real.provider.fetch(`http://model/api/v1${path}`, {
    method,
    headers: headers(type),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as Record<string, unknown>;
  return { status: response.status, json, code: response.headers.get("x-stack-known-error") };
}

const pick = <T>(list: readonly T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);

/** The model's view of one (team, user) pair, checked against the provider's listing. */
async function assertPair(m: Model, r: Real, team: string, user: string): Promise<void> {
  const listed = await call(r, "GET", `/team-permissions?team_id=${team}&user_id=${user}&recursive=false`);
  if (!m.members.has(`${team}:${user}`)) {
    expect(listed.status === 200 ? (listed.json.items as unknown[]).length : 0).toBe(0);
    return;
  }
  const ids = (listed.json.items as { id: string }[]).map((p) => p.id).sort();
  const expected = [...m.grants]
    .filter((g) => g.startsWith(`${team}:${user}:`))
    .map((g) => g.split(":").slice(2).join(":"))
    .sort();
  expect(ids).toEqual(expected);
}

const commands = [
  fc.constant({
    check: () => true,
    async run(m: Model, r: Real) {
      const created = await call(r, "POST", "/users", {});
      expect(created.status).toBe(201);
      m.users.push(created.json.id as string);
    },
    toString: () => "createUser",
  }),
  fc.constant({
    check: () => true,
    async run(m: Model, r: Real) {
      const created = await call(r, "POST", "/teams", { display_name: "model team" });
      expect(created.status).toBe(201);
      m.teams.push(created.json.id as string);
    },
    toString: () => "createTeam",
  }),
  fc.nat().map((i) => ({
    check: (m: Readonly<Model>) => m.users.length > 0,
    async run(m: Model, r: Real) {
      const user = pick(m.users, i)!;
      expect((await call(r, "DELETE", `/users/${user}`)).status).toBe(200);
      m.users = m.users.filter((u) => u !== user);
      for (const k of [...m.members]) if (k.endsWith(`:${user}`)) m.members.delete(k);
      for (const k of [...m.grants]) if (k.split(":")[1] === user) m.grants.delete(k);
    },
    toString: () => `deleteUser(${i})`,
  })),
  fc.nat().map((i) => ({
    check: (m: Readonly<Model>) => m.teams.length > 0,
    async run(m: Model, r: Real) {
      const team = pick(m.teams, i)!;
      expect((await call(r, "DELETE", `/teams/${team}`)).status).toBe(200);
      m.teams = m.teams.filter((t) => t !== team);
      for (const k of [...m.members]) if (k.startsWith(`${team}:`)) m.members.delete(k);
      for (const k of [...m.grants]) if (k.startsWith(`${team}:`)) m.grants.delete(k);
    },
    toString: () => `deleteTeam(${i})`,
  })),
  fc.tuple(fc.nat(), fc.nat()).map(([i, j]) => ({
    check: (m: Readonly<Model>) => m.users.length > 0 && m.teams.length > 0,
    async run(m: Model, r: Real) {
      const [team, user] = [pick(m.teams, j)!, pick(m.users, i)!];
      const added = await call(r, "POST", `/team-memberships/${team}/${user}`, {});
      if (m.members.has(`${team}:${user}`)) {
        expect([added.status, added.code]).toEqual([409, "TEAM_MEMBERSHIP_ALREADY_EXISTS"]);
      } else {
        expect(added.status).toBe(201);
        m.members.add(`${team}:${user}`);
        for (const p of m.memberDefaults) m.grants.add(`${team}:${user}:${p}`);
      }
      await assertPair(m, r, team, user);
    },
    toString: () => `addMember(${i}, ${j})`,
  })),
  fc.tuple(fc.nat(), fc.nat()).map(([i, j]) => ({
    check: (m: Readonly<Model>) => m.users.length > 0 && m.teams.length > 0,
    async run(m: Model, r: Real) {
      const [team, user] = [pick(m.teams, j)!, pick(m.users, i)!];
      const removed = await call(r, "DELETE", `/team-memberships/${team}/${user}`);
      if (!m.members.has(`${team}:${user}`)) {
        expect([removed.status, removed.code]).toEqual([404, "TEAM_MEMBERSHIP_NOT_FOUND"]);
      } else {
        expect(removed.status).toBe(200);
        m.members.delete(`${team}:${user}`);
        for (const k of [...m.grants]) if (k.startsWith(`${team}:${user}:`)) m.grants.delete(k);
      }
      await assertPair(m, r, team, user);
    },
    toString: () => `removeMember(${i}, ${j})`,
  })),
  fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...PERMS), fc.boolean()).map(([i, j, perm, grant]) => ({
    check: (m: Readonly<Model>) => m.users.length > 0 && m.teams.length > 0,
    async run(m: Model, r: Real) {
      const [team, user] = [pick(m.teams, j)!, pick(m.users, i)!];
      const key = `${team}:${user}:${perm}`;
      const answer = await call(
        r,
        grant ? "POST" : "DELETE",
        `/team-permissions/${team}/${user}/${perm}`,
        grant ? {} : undefined,
      );
      if (!m.members.has(`${team}:${user}`)) {
        expect([answer.status, answer.code]).toEqual([404, "TEAM_MEMBERSHIP_NOT_FOUND"]);
      } else if (grant) {
        expect(answer.status).toBeLessThan(300);
        m.grants.add(key);
      } else if (!m.grants.has(key)) {
        expect([answer.status, answer.code]).toEqual([401, "TEAM_PERMISSION_NOT_FOUND"]);
      } else {
        expect(answer.status).toBe(200);
        m.grants.delete(key);
      }
      await assertPair(m, r, team, user);
    },
    toString: () => `${grant ? "grant" : "revoke"}(${i}, ${j}, ${perm})`,
  })),
];

describe("users, teams, memberships and permissions against a simple model", () => {
  it("agree after every command of random sequences", async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40 }), async (cmds) => {
        const provider = createFakeProvider({ clock: manualClock(Date.UTC(2026, 0, 1)), ids: seededRandom("model") });
        const real: Real = { provider };
        for (const id of PERMS)
          expect((await call(real, "POST", "/team-permission-definitions", { id }, "admin")).status).toBeLessThan(300);
        const admin = await call(real, "GET", "/internal/projects/current", undefined, "admin");
        const config = admin.json.config as { team_member_default_permissions: { id: string }[] };
        const model: Model = {
          users: [],
          teams: [],
          members: new Set(),
          grants: new Set(),
          memberDefaults: config.team_member_default_permissions.map((p) => p.id),
        };
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      }),
      { numRuns: 40, seed: 20261122 },
    );
  }, 120_000);
});
